// From a fuzz case to the Request Next.js would hand the route, the call itself, and the property
// every answer must keep.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { createSession } from "@/lib/auth/create-session";
import { issueSiweNonce } from "@/lib/auth/issue-siwe-nonce";
import { uniqueIp } from "@/test/fixtures";
import type { Body, Case, Method } from "./fuzz-cases";
import type { Module, Route } from "./fuzz-routes";
import { ORIGIN, type World } from "./fuzz-world";

// The only 5xx the contract allows, both on chat (spec, Errors table): 502 when the webhook
// answers non-2xx, 503 when it is unreachable, not connected or too slow. Nothing else may
// answer 5xx to any input.
const CHAT_5XX = { 502: /^The agent's webhook returned HTTP \d+\.$/, 503: /webhook|did not reply/ };
// And the queued batches' 503 while QStash is not set up (docs/operations.md): QStash, not a
// person, reads it, and delivers the batch again later.
const QUEUE_5XX = { 503: /^Queue not configured/ };
const ALLOWED_5XX: Record<string, Partial<Record<number, RegExp>>> = {
  "/api/v1/chat": CHAT_5XX,
  "/api/v1/chat/completions": CHAT_5XX,
  "/api/queue/health-checks": QUEUE_5XX,
  "/api/queue/probe-rentals": QUEUE_5XX,
};

// --- from a case to a Request -------------------------------------------------------------------

// Deriving a wallet's address is elliptic-curve work: a few, reused, sign the SIWE messages.
const WALLETS = Array.from({ length: 8 }, () => privateKeyToAccount(generatePrivateKey()));

// Placeholders in generated bodies that stand for the world's real values.
async function resolvePlaceholders(world: World, value: unknown, route: Route, pick: number): Promise<unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const swap = new Map<string, string>([
    ["HOOK", world.hookUrl],
    ["HOOK_FAIL", world.hookUrl.replace("/hooks/agent", "/fail")],
    ["CLOSED", world.closedUrl],
    ["PAYABLE", world.payableAgentId],
    ["PAID", world.paidTxHash],
    ["CLAIM", world.paidClaimSecret],
  ]);
  for (const [key, v] of Object.entries(out)) if (typeof v === "string" && swap.has(v)) out[key] = swap.get(v);
  const siwe = route.path === "/api/auth/siwe" && typeof out.message === "string" && out.message.startsWith("SIWE_") ? out.message : null;
  if (siwe) {
    const wallet = WALLETS[pick % WALLETS.length];
    // A well-formed nonce this site never issued, or a fresh one.
    const nonce = siwe === "SIWE_STALE_NONCE" ? pick.toString(16).padStart(32, "0") : (await issueSiweNonce()).nonce;
    const message = createSiweMessage({
      domain: new URL(ORIGIN).host,
      uri: ORIGIN,
      address: wallet.address,
      version: "1",
      chainId: 31337,
      nonce,
      issuedAt: new Date(),
    });
    out.message = message;
    if (out.signature === "SIGNATURE" || siwe === "SIWE_SIGNED") out.signature = await wallet.signMessage({ message });
  } else if (out.signature === "SIGNATURE") {
    out.signature = `0x${"1b".repeat(65)}`;
  }
  return out;
}

// Over every route's cap (the largest is chat's 256 KiB); built once, bodies are only read.
const OVERSIZE = new TextEncoder().encode(JSON.stringify({ message: "x".repeat(260 * 1024) }));

async function bodyBytes(world: World, body: Body, route: Route, pick: number): Promise<Uint8Array | null> {
  switch (body.kind) {
    case "none":
      return null;
    case "bytes":
      return body.bytes;
    case "text":
      return new TextEncoder().encode(body.text);
    case "json":
      return new TextEncoder().encode(JSON.stringify(await resolvePlaceholders(world, body.value, route, pick)) ?? "null");
    case "truncated": {
      const text = JSON.stringify(await resolvePlaceholders(world, body.value, route, pick)) ?? "null";
      return new TextEncoder().encode(text.slice(0, body.cut % (text.length + 1)));
    }
    case "oversize":
      return OVERSIZE;
  }
}

async function toRequest(world: World, route: Route, c: Case): Promise<{ req: Request; params: Record<string, unknown> }> {
  const pool = route.pool ? world.owners[route.pool] : undefined;
  const owner = pool?.[c.pick % pool.length];
  const headers = new Headers();
  headers.set("x-forwarded-for", c.ip ?? uniqueIp());
  headers.set("user-agent", "fuzz");

  const cred = c.credential;
  const setCredential = (value: string, as: "x-api-key" | "bearer" | "authorization") => {
    if (as === "x-api-key") headers.set("x-api-key", value);
    else headers.set("authorization", as === "bearer" ? `Bearer ${value}` : value);
  };
  if (cred.kind === "raw") setCredential(cred.value, cred.as);
  if (cred.kind === "ownerKey") setCredential(owner?.apiKey ?? world.owners.agents[0].apiKey, cred.as);
  if (cred.kind === "code") {
    const code = world.codes[cred.which];
    const shaped = cred.shape === "upper" ? code.toUpperCase() : cred.shape === "uuid" ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
    setCredential(shaped, cred.as);
  }
  if (c.cookie.kind === "raw") headers.set("cookie", c.cookie.value);
  if (c.cookie.kind === "session") {
    // Sign-out revokes the session it is sent, so it gets a fresh one each time.
    const fresh =
      route.path === "/api/auth/sign-out" && (await createSession(world.accountId, { method: "email", userAgent: "fuzz" })).cookie;
    headers.set("cookie", fresh ? fresh.split(";")[0] : world.sessionCookie);
  }
  if (c.contentType !== null) headers.set("content-type", c.contentType);
  for (const [name, value] of c.extraHeaders) headers.set(name, value);

  const canHaveBody = c.method !== "GET" && c.method !== "HEAD";
  const body = canHaveBody ? await bodyBytes(world, c.body, route, c.pick) : null;
  if (body && c.body.kind === "oversize" && c.body.declare) headers.set("content-length", String(body.byteLength));
  if (c.contentLength !== null) headers.set("content-length", c.contentLength);

  let params: Record<string, unknown> = {};
  let path = route.path;
  if (route.dynamicId) {
    const id =
      c.id === "own" ? (owner?.agentId ?? c.uuid) : c.id === "other" ? world.otherAgentId : c.id === "random" ? c.uuid : c.garbageId;
    const name = route.idParam ?? "id";
    params = { [name]: id };
    path = path.replace(`[${name}]`, encodeURIComponent(id));
  }
  if (path.includes("nope")) params = { path: path.split("/").slice(3) };
  return { req: new Request(`${ORIGIN}${path}`, { method: c.method, headers, body: body as BodyInit | null }), params };
}

// What Next.js does with a method: the exported handler, HEAD falling back to GET, OPTIONS
// answered by itself (204 and Allow), and any other missing method an empty 405, which the
// property refuses: every route must answer every method in JSON.
async function dispatch(route: Route, method: Method, req: Request, params: Record<string, unknown>): Promise<Response> {
  const mod = route.mod as Module;
  const handler = mod[method] ?? (method === "HEAD" ? mod.GET : undefined);
  if (handler) return handler(req, { params: Promise.resolve(params) });
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: "OPTIONS" } });
  return new Response(null, { status: 405 });
}

// The property. Plain checks, not expect(): it runs 25,000 times.
export async function check(world: World, route: Route, c: Case): Promise<void> {
  const { req, params } = await toRequest(world, route, c);
  const res = await dispatch(route, c.method, req, params);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  const fail = (why: string) => {
    throw new Error(`${why}: ${c.method} ${route.path} → ${res.status} ${type} ${text.slice(0, 300)}`);
  };
  if (process.env.FUZZ_STATS) {
    const key = `${route.path} ${res.status} ${
      res.status >= 400
        ? String(JSON.parse(text).error)
            .replace(/"[^"]*"/g, '"…"')
            .slice(0, 70)
        : ""
    }`;
    FUZZ_STATS.set(key, (FUZZ_STATS.get(key) ?? 0) + 1);
  }

  if (/html/i.test(type)) fail("an HTML answer");
  // An OpenAI, MCP or A2A stream is server-sent events, not JSON.
  if (route.dialect && res.status === 200 && /^text\/event-stream/.test(type)) return;
  let json: unknown;
  if (text.length > 0) {
    if (!/^application\/json/.test(type)) fail("a body that is not JSON");
    try {
      json = JSON.parse(text);
    } catch {
      fail("a body that does not parse as JSON");
    }
  }
  if (res.status >= 400) {
    const message = errorMessage(route, json);
    if (message === null) fail(`an error body that is not ${route.dialect ? `${route.dialect}'s error shape` : '{"error": "<message>"}'}`);
    if (res.status >= 500) {
      const allowed = ALLOWED_5XX[route.path]?.[res.status];
      if (!allowed?.test(message as string)) fail("a 5xx the contract does not allow");
    }
  }
}

// The error's words, or null when the body is not the route's error shape: the spec's
// {"error": "…"}; OpenAI's {"error": {"message", "type", …}}; for MCP and A2A either the spec's
// (refused before the protocol: credential, rate limit) or a JSON-RPC error.
function errorMessage(route: Route, json: unknown): string | null {
  const body = json as { error?: unknown; jsonrpc?: unknown } | undefined;
  const error = body?.error;
  if (typeof error === "string" && error.length > 0 && Object.keys(body as object).length === 1) return error;
  if (route.dialect === "openai" && error && typeof error === "object") {
    const { message, type } = error as { message?: unknown; type?: unknown };
    if (typeof message === "string" && message.length > 0 && typeof type === "string") return message;
  }
  if (route.dialect === "jsonrpc" && body?.jsonrpc === "2.0" && error && typeof error === "object") {
    const { message } = error as { message?: unknown };
    if (typeof message === "string") return message;
  }
  return null;
}

// FUZZ_STATS=1 counts how often each route answered each status and message (is the fuzz
// reaching the code behind the validation?); the test prints them at the end.
export const FUZZ_STATS = new Map<string, number>();
