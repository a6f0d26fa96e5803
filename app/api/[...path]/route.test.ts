// Every path and every method under /api answers in the spec's error form: JSON `{ "error" }`,
// never the framework's empty 405 or HTML 404 page, and no route reads an oversize body.
import { describe, expect, it } from "vitest";
import * as API_CATCH_ALL from "@/app/api/[...path]/route";
import * as AUTH_CALLBACK from "@/app/api/auth/email/callback/route";
import * as AUTH_EMAIL from "@/app/api/auth/email/route";
import * as AUTH_NONCE from "@/app/api/auth/nonce/route";
import * as AUTH_SESSION from "@/app/api/auth/session/route";
import * as AUTH_SIGN_OUT from "@/app/api/auth/sign-out/route";
import * as AUTH_SIWE from "@/app/api/auth/siwe/route";
import * as CHECKOUT_CONFIRM from "@/app/api/checkout/confirm/route";
import * as CHECKOUT_QUOTE from "@/app/api/checkout/quote/route";
import * as CRON_HEALTH_CHECKS from "@/app/api/cron/health-checks/route";
import * as CRON_PROBE_RENTALS from "@/app/api/cron/probe-rentals/route";
import * as CRON_RELEASE from "@/app/api/cron/release-rentals/route";
import * as CRON_SYNC from "@/app/api/cron/sync-escrow/route";
import * as HEALTH from "@/app/api/health/route";
import * as PUBLIC_CATCH_ALL from "@/app/api/public/[...path]/route";
import * as PUBLIC_AGENT_CONNECT from "@/app/api/public/agents/[id]/connect/route";
import * as PUBLIC_AGENT from "@/app/api/public/agents/[id]/route";
import * as PUBLIC_AGENTS from "@/app/api/public/agents/route";
import * as PUBLIC_ROOT from "@/app/api/public/route";
import * as PUBLIC_STATS from "@/app/api/public/stats/route";
import * as QUEUE_HEALTH_CHECKS from "@/app/api/queue/health-checks/route";
import * as QUEUE_PROBE_RENTALS from "@/app/api/queue/probe-rentals/route";
import * as API_ROOT from "@/app/api/route";
import * as V1_CATCH_ALL from "@/app/api/v1/[...path]/route";
import * as V1_AVAILABILITY from "@/app/api/v1/availability/route";
import * as V1_CHAT from "@/app/api/v1/chat/route";
import * as V1_OPENAPI from "@/app/api/v1/openapi.json/route";
import * as V1_ROOT from "@/app/api/v1/route";
import * as V1_STATUS from "@/app/api/v1/status/route";
import { uniqueIp } from "@/test/fixtures";

type Handler = (req: Request, segment?: unknown) => Response | Promise<Response>;
type RouteModule = Partial<Record<string, Handler | unknown>>;

// Next.js answers HEAD with GET and OPTIONS by itself; the other five must all be exported.
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const ROUTES: [string, RouteModule, string][] = [
  ["/api/auth/email/callback", AUTH_CALLBACK, "POST"],
  ["/api/auth/email", AUTH_EMAIL, "POST"],
  ["/api/auth/nonce", AUTH_NONCE, "GET"],
  ["/api/auth/session", AUTH_SESSION, "GET"],
  ["/api/auth/sign-out", AUTH_SIGN_OUT, "POST"],
  ["/api/auth/siwe", AUTH_SIWE, "POST"],
  ["/api/checkout/confirm", CHECKOUT_CONFIRM, "POST"],
  ["/api/checkout/quote", CHECKOUT_QUOTE, "POST"],
  ["/api/cron/health-checks", CRON_HEALTH_CHECKS, "GET, POST"],
  ["/api/cron/probe-rentals", CRON_PROBE_RENTALS, "GET, POST"],
  ["/api/cron/release-rentals", CRON_RELEASE, "GET, POST"],
  ["/api/cron/sync-escrow", CRON_SYNC, "GET, POST"],
  ["/api/health", HEALTH, "GET"],
  ["/api/public/agents/x/connect", PUBLIC_AGENT_CONNECT, "POST"],
  ["/api/public/agents/x", PUBLIC_AGENT, "GET, PATCH, DELETE"],
  ["/api/public/agents", PUBLIC_AGENTS, "GET, POST"],
  ["/api/public/stats", PUBLIC_STATS, "GET"],
  ["/api/queue/health-checks", QUEUE_HEALTH_CHECKS, "POST"],
  ["/api/queue/probe-rentals", QUEUE_PROBE_RENTALS, "POST"],
  ["/api/v1/availability", V1_AVAILABILITY, "GET"],
  ["/api/v1/chat", V1_CHAT, "POST"],
  ["/api/v1/openapi.json", V1_OPENAPI, "GET"],
  ["/api/v1/status", V1_STATUS, "GET"],
];

async function expectJsonError(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await res.json();
  expect(body).toEqual({ error: expect.any(String) });
  return body.error;
}

describe("methods a route does not serve", () => {
  it.each(ROUTES)("%s exports every method and answers the others with a JSON 405 naming %s", async (path, mod, allowed) => {
    for (const method of METHODS) {
      const handler = mod[method] as Handler | undefined;
      expect(handler, `${method} ${path}`).toBeTypeOf("function");
      if (allowed.split(", ").includes(method)) continue;
      const res = await handler!(new Request(`http://localhost${path}`, { method, headers: { "x-forwarded-for": uniqueIp() } }));
      expect(await expectJsonError(res, 405)).toMatch(new RegExp(`^Method not allowed; use ${allowed}\\.$`));
      expect(res.headers.get("allow")).toMatch(new RegExp(`^${allowed}`));
    }
  });
});

describe("paths no route serves", () => {
  const unknown: [string, RouteModule, RegExp][] = [
    ["/api", API_ROOT, /renter API is under \/api\/v1.*owner API under \/api\/public/],
    ["/api/nope/deeper", API_CATCH_ALL, /renter API is under \/api\/v1.*owner API under \/api\/public/],
    [
      "/api/v1",
      V1_ROOT,
      /POST \/v1\/chat, GET \/v1\/status, GET \/v1\/availability, POST \/v1\/chat\/completions, GET \/v1\/models and POST \/v1\/mcp/,
    ],
    ["/api/v1/nope", V1_CATCH_ALL, /POST \/v1\/chat, GET \/v1\/status, GET \/v1\/availability, POST \/v1\/chat\/completions/],
    ["/api/public", PUBLIC_ROOT, /\/public\/agents.*\/public\/stats/],
    ["/api/public/nope", PUBLIC_CATCH_ALL, /\/public\/agents.*\/public\/stats/],
  ];
  it.each(unknown)("%s answers a JSON 404 for every method", async (path, mod, message) => {
    for (const method of [...METHODS, "HEAD", "OPTIONS"]) {
      // HEAD falls back to GET in Next.js; OPTIONS on /v1 is the CORS preflight (204).
      const handler = (mod[method] ?? (method === "HEAD" ? mod.GET : undefined)) as Handler | undefined;
      expect(handler, `${method} ${path}`).toBeTypeOf("function");
      const res = await handler!(new Request(`http://localhost${path}`, { method }));
      if (method === "OPTIONS" && path.startsWith("/api/v1")) {
        expect(res.status).toBe(204);
        continue;
      }
      expect(await expectJsonError(res, 404)).toMatch(message);
    }
  });
});

describe("POST /api/auth/email/callback body cap", () => {
  it("413 in JSON for a form over 4 KiB, without reading a body that never ends", async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1024;
        controller.enqueue(new TextEncoder().encode("token=".padEnd(1024, "a")));
      },
    });
    const req = new Request("http://localhost/api/auth/email/callback", {
      method: "POST",
      body: endless,
      duplex: "half",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        "x-forwarded-for": uniqueIp(),
      },
    } as RequestInit);
    expect(await expectJsonError(await AUTH_CALLBACK.POST(req), 413)).toBe("Request body is larger than 4096 bytes.");
    expect(sent).toBeLessThanOrEqual(8 * 1024);
  });
});
