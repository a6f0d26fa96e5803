// The security headers: the page policy (proxy.ts, a nonce per response), the static headers and
// the API policy (next.config.ts), and which paths the proxy covers.
import { createRequire } from "node:module";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_CONTENT_SECURITY_POLICY, type PagePolicyInput, pageContentSecurityPolicy } from "@/lib/http/security-headers";

const BASE: PagePolicyInput = {
  nonce: "bm9uY2Utb2YtdGhpcy10ZXN0",
  dev: false,
  rpcUrl: "https://mainnet.base.org",
  walletConnect: false,
  https: true,
};

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("pageContentSecurityPolicy", () => {
  it("runs only scripts with this response's nonce (or loaded by them), never inline or eval in production", () => {
    const csp = directives(pageContentSecurityPolicy(BASE));
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${BASE.nonce}'`, "'strict-dynamic'"]);
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
  });

  it("forbids framing by any site", () => {
    expect(directives(pageContentSecurityPolicy(BASE)).get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("allows eval in development only (React's dev tooling needs it)", () => {
    expect(directives(pageContentSecurityPolicy({ ...BASE, dev: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(pageContentSecurityPolicy(BASE)).not.toContain("unsafe-eval");
  });

  it("connects to this origin, the public RPC's origin and Coinbase Wallet's relay; WalletConnect's services only when configured", () => {
    const without = directives(pageContentSecurityPolicy({ ...BASE, rpcUrl: "https://rpc.example.com/v1/base?x=1" })).get("connect-src")!;
    expect(without).toEqual(expect.arrayContaining(["'self'", "https://rpc.example.com", "wss://www.walletlink.org"]));
    expect(without.join(" ")).not.toContain("/v1/base");
    expect(without.join(" ")).not.toContain("walletconnect");

    const csp = directives(pageContentSecurityPolicy({ ...BASE, walletConnect: true }));
    expect(csp.get("connect-src")).toEqual(
      expect.arrayContaining([
        "https://mainnet.base.org",
        "wss://relay.walletconnect.org",
        "wss://relay.walletconnect.com",
        "https://rpc.walletconnect.org",
        "https://api.web3modal.org",
      ]),
    );
    expect(csp.get("frame-src")).toEqual(expect.arrayContaining(["https://verify.walletconnect.org"]));
    expect(csp.get("font-src")).toContain("https://fonts.reown.com");
  });

  it("allows the local anvil RPC of development and the tests, on its port", () => {
    expect(directives(pageContentSecurityPolicy({ ...BASE, rpcUrl: "http://127.0.0.1:40123", https: false })).get("connect-src")).toContain(
      "http://127.0.0.1:40123",
    );
  });

  it("upgrades insecure requests only on an https site (a local http server would break)", () => {
    expect(directives(pageContentSecurityPolicy(BASE)).has("upgrade-insecure-requests")).toBe(true);
    expect(directives(pageContentSecurityPolicy({ ...BASE, https: false })).has("upgrade-insecure-requests")).toBe(false);
  });
});

describe("next.config.ts headers", () => {
  async function headersFor(nodeEnv: string) {
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.resetModules();
    const { default: config } = await import("@/next.config");
    return config.headers!();
  }

  it("every path: nosniff, a referrer policy, no framing; the API a CSP that loads nothing", async () => {
    const rules = await headersFor("production");
    const all = rules.find((r) => r.source === "/:path*")!;
    expect(all.headers).toEqual(
      expect.arrayContaining([
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "X-Frame-Options", value: "DENY" },
      ]),
    );
    for (const source of ["/api/:path*", "/v1/:path*", "/public/:path*", "/a2a/:path*", "/.well-known/:path*"]) {
      expect(rules.find((r) => r.source === source)?.headers).toEqual([
        { key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY },
      ]);
    }
    expect(API_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it("HSTS in a production build only", async () => {
    const hsts = (rules: Awaited<ReturnType<typeof headersFor>>) =>
      rules.flatMap((r) => r.headers).find((h) => h.key === "Strict-Transport-Security");
    expect(hsts(await headersFor("production"))?.value).toBe("max-age=63072000; includeSubDomains");
    expect(hsts(await headersFor("development"))).toBeUndefined();
  });
});

describe("proxy.ts", () => {
  async function loadProxy(vars: Record<string, string>) {
    for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
    vi.resetModules();
    return import("@/proxy");
  }

  it("sets a page policy with a fresh nonce on the response and on the request Next.js renders from", async () => {
    const { proxy } = await loadProxy({
      CHAIN_ID: "8453",
      CHAIN_RPC_URL: "https://base-mainnet.g.alchemy.com/v2/SECRETKEY",
    });
    const first = proxy(new NextRequest("http://localhost:3000/agents/x/rent"));
    const second = proxy(new NextRequest("http://localhost:3000/agents/x/rent"));
    const policy = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/); // 128 random bits
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    // Next.js takes the nonce from the request's CSP header (passed on as an override).
    expect(first.headers.get("x-middleware-override-headers")).toContain("content-security-policy");
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    // The browser may reach the chain's public RPC, and learns nothing of the keyed one.
    expect(directives(policy).get("connect-src")).toContain("https://mainnet.base.org");
    expect(policy).not.toContain("SECRETKEY");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("runs on pages, not on the API, Next's static files or the icon", async () => {
    const { config } = await loadProxy({});
    // Next's own compiler of proxy matchers (as `next build` and `next dev` use it).
    const require = createRequire(import.meta.url);
    const { getMiddlewareMatchers } = require("next/dist/build/analysis/get-page-static-info.js");
    const [matcher] = getMiddlewareMatchers(config.matcher, {});
    const runsOn = (path: string) => new RegExp(matcher.regexp).test(path);
    for (const page of ["/", "/agents/0b83e3cb/rent", "/dashboard/rentals", "/sign-in", "/dev/outbox", "/apiary", "/a2agents"])
      expect(runsOn(page), page).toBe(true);
    for (const other of [
      "/api/v1/chat",
      "/api",
      "/v1/status",
      "/public/agents",
      "/a2a",
      "/a2a/0b83e3cb-0000-4000-8000-000000000000",
      "/a2a/0b83e3cb-0000-4000-8000-000000000000/.well-known/agent-card.json",
      "/.well-known/agent-card.json",
      "/_next/static/chunks/main.js",
      "/_next/image",
      "/icon.svg",
    ])
      expect(runsOn(other), other).toBe(false);
    expect(matcher.missing).toEqual(expect.arrayContaining([{ type: "header", key: "next-router-prefetch" }]));
  });
});
