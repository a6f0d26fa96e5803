// Property-based fuzzing of every API route handler under app/api: random methods, headers
// (garbage X-API-Key, Authorization, Content-Type, Content-Length, Cookie, Origin, …) and bodies
// (random bytes and text, random JSON, JSON shaped like each route's real body, truncated JSON,
// forms, oversize bodies), FUZZ_RUNS cases per route (default 1,000), each handler called as
// Next.js calls it, against real rows, a real webhook and a private anvil chain. Every answer
// must be below 500, but for chat's 502 and 503 (ALLOWED_5XX, the spec's), and every 4xx must
// be JSON `{ "error": "<message>" }`.
//
// Each route runs with seed FUZZ_SEED + its index (FUZZ_SEED defaults to 20261123). fast-check
// prints the seed and path of a failure; replay exactly that case with
//   FUZZ_ONLY=<route path> FUZZ_SEED=<printed seed> FUZZ_PATH=<printed path> npx vitest run test/fuzz
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
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
import * as CRON_RELEASE from "@/app/api/cron/release-rentals/route";
import * as CRON_SYNC from "@/app/api/cron/sync-escrow/route";
import * as HEALTH from "@/app/api/health/route";
import * as PUBLIC_CATCH_ALL from "@/app/api/public/[...path]/route";
import * as PUBLIC_AGENT_CONNECT from "@/app/api/public/agents/[id]/connect/route";
import * as PUBLIC_AGENT from "@/app/api/public/agents/[id]/route";
import * as PUBLIC_AGENTS from "@/app/api/public/agents/route";
import * as PUBLIC_ROOT from "@/app/api/public/route";
import * as PUBLIC_STATS from "@/app/api/public/stats/route";
import * as API_ROOT from "@/app/api/route";
import * as V1_CATCH_ALL from "@/app/api/v1/[...path]/route";
import * as V1_CHAT from "@/app/api/v1/chat/route";
import * as V1_OPENAPI from "@/app/api/v1/openapi.json/route";
import * as V1_ROOT from "@/app/api/v1/route";
import * as V1_STATUS from "@/app/api/v1/status/route";
import { CATEGORIES } from "@/lib/agents/categories";
import { sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { createSession } from "@/lib/auth/create-session";
import { issueSiweNonce } from "@/lib/auth/issue-siwe-nonce";
import { db } from "@/lib/db";
import { appUrl, env } from "@/lib/env";
import { makePayableAgent, newRenter, pay, startPayments, type Payments } from "@/test/chain/payments-harness";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const ONLY = process.env.FUZZ_ONLY;
const ORIGIN = appUrl();

// The only 5xx the contract allows, both on chat (spec, Errors table): 502 when the webhook
// answers non-2xx, 503 when it is unreachable, not connected or too slow. Nothing else may
// answer 5xx to any input.
const ALLOWED_5XX: Record<string, Partial<Record<number, RegExp>>> = {
  "/api/v1/chat": { 502: /^The agent's webhook returned HTTP \d+\.$/, 503: /webhook|did not reply/ },
};

// --- the world the requests land in ----------------------------------------------------------

type World = {
  hookUrl: string;
  closedUrl: string;
  codes: Record<"active" | "failing" | "noWebhook" | "brokenCredentials" | "expired" | "cancelled", string>;
  owners: Record<string, { apiKey: string; agentId: string }[]>;
  otherAgentId: string;
  accountId: string;
  /** A signed-in session's cookie, shared by every route that does not end sessions. */
  sessionCookie: string;
  payableAgentId: string;
  paidTxHash: string;
  paidClaimSecret: string;
};
let world: World;
let payments: Payments;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  // Thousands of dev-outbox e-mails and request logs would cost more than the requests; errors
  // (an unhandled one is also a 500, which fails the property) still print.
  for (const level of ["log", "info", "warn", "debug"] as const) vi.spyOn(console, level).mockImplementation(() => {});
  // Rate limits on the embedded default's in-memory adapter (the same policies through the same
  // code, lib/ratelimit/policies.ts): 25,000 requests stay off the Redis other test files share
  // (a global limit tripped here would answer their requests), at a third of the cost.
  Object.assign(env, { UPSTASH_REDIS_REST_URL: undefined, UPSTASH_REDIS_REST_TOKEN: undefined });
  payments = await startPayments();
  hook = await startWebhook((req, res) => {
    if (req.url.includes("fail") || req.body.includes('"fail"')) return res.writeHead(500).end("down");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: req.body.length }));
  });
  const token = randomBytes(32).toString("base64url");
  const failingUrl = hook.url.replace("/hooks/agent", "/fail");
  const closedUrl = "http://127.0.0.1:9/hooks/agent";

  // Owner keys: a pool per owner route, so the 30/min per key bucket rarely answers first.
  const ownerPool = async () =>
    Promise.all(
      Array.from({ length: 30 }, async () => {
        const { accountId, apiKey } = await makeOwnerWithKey();
        const agent = await makeOwnerAgent(accountId, { webhook: { url: hook.url, token } });
        // A rental on record: DELETE answers 409 instead of emptying the pool in the first cases.
        await makeRental(agent.id);
        return { apiKey, agentId: agent.id };
      }),
    );
  const owners = { agents: await ownerPool(), agent: await ownerPool(), connect: await ownerPool(), stats: await ownerPool() };

  const { accountId } = await makeOwnerWithKey();
  const renterAgent = await makeOwnerAgent(accountId, { webhook: { url: hook.url, token } });
  const failingAgent = await makeOwnerAgent(accountId, { webhook: { url: failingUrl, token } });
  const bareAgent = await makeOwnerAgent(accountId);
  // Odd data: ciphertexts that do not decrypt (another row's, refused by authenticated encryption).
  const brokenAgent = await makeOwnerAgent(accountId);
  await db.agent.update({ where: { id: brokenAgent.id }, data: sealWebhookCredentials(renterAgent.id, { url: hook.url, token }) });
  const code = (rental: { id: string }) => rental.id.slice(0, 8);
  const codes = {
    active: code(await makeRental(renterAgent.id)),
    failing: code(await makeRental(failingAgent.id)),
    noWebhook: code(await makeRental(bareAgent.id)),
    brokenCredentials: code(await makeRental(brokenAgent.id)),
    expired: code(await makeRental(renterAgent.id, { startsInSeconds: -7_200, endsInSeconds: -60 })),
    cancelled: code(await makeRental(renterAgent.id, { status: "cancelled" })),
  };

  // One real payment, so confirm meets a hash the chain knows (with and without its claim secret).
  const { agent: payable } = await makePayableAgent();
  const renter = await newRenter(payments);
  const quoted = await CHECKOUT_QUOTE.POST(
    jsonRequest("/api/checkout/quote", { agentId: payable.id, durationType: "hour", channel: "API", renter: renter.address }),
  );
  const q = await quoted.json();
  if (quoted.status !== 201) throw new Error(`quote failed: ${quoted.status} ${JSON.stringify(q)}`);
  const quote = { ...q.quote, price: BigInt(q.quote.price), fee: BigInt(q.quote.fee), duration: BigInt(q.quote.duration), deadline: BigInt(q.quote.deadline) };
  const paidTxHash = (await pay(payments, renter, { quote, signature: q.signature })).transactionHash;

  world = {
    hookUrl: hook.url,
    closedUrl,
    codes,
    owners,
    otherAgentId: renterAgent.id,
    accountId,
    sessionCookie: (await createSession(accountId, { method: "email", userAgent: "fuzz" })).cookie.split(";")[0],
    payableAgentId: payable.id,
    paidTxHash,
    paidClaimSecret: q.claimSecret,
  };
}, 300_000);

afterAll(async () => {
  await hook?.close();
  await payments?.stop();
});

function jsonRequest(path: string, body: unknown): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
    body: JSON.stringify(body),
  });
}

// --- what a case is ----------------------------------------------------------------------------

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

// Values a resolver turns into real credentials or state when the case runs.
type Credential =
  | { kind: "none" }
  | { kind: "raw"; value: string; as: "x-api-key" | "bearer" | "authorization" }
  | { kind: "code"; which: keyof World["codes"]; as: "x-api-key" | "bearer"; shape: "plain" | "upper" | "uuid" }
  | { kind: "ownerKey"; as: "x-api-key" | "bearer" };
type Cookie = { kind: "none" } | { kind: "raw"; value: string } | { kind: "session" };
type Body =
  | { kind: "none" }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "text"; text: string }
  | { kind: "json"; value: unknown }
  | { kind: "truncated"; value: unknown; cut: number }
  | { kind: "oversize"; declare: boolean };

type Case = {
  method: Method;
  credential: Credential;
  cookie: Cookie;
  contentType: string | null;
  contentLength: string | null;
  ip: string | null;
  extraHeaders: [string, string][];
  body: Body;
  /** Index into the route's pools (owner key and its agent), and which id an [id] route gets. */
  pick: number;
  id: "own" | "other" | "random" | "garbage";
  uuid: string;
  garbageId: string;
};

// Header values as a client can send them: Latin-1 text, tabs, surrounding spaces.
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant("\t") },
);
const headerValue = fc.string({ unit: headerChar, maxLength: 80 });
const headerName = fc.oneof(
  fc.constantFrom(
    "x-api-key",
    "authorization",
    "content-type",
    "cookie",
    "origin",
    "sec-fetch-site",
    "host",
    "x-forwarded-host",
    "x-real-ip",
    "user-agent",
    "accept",
    "x-health-check",
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);
// Any Unicode text. One shared instance: fast-check builds a reverse table of every code point
// per instance the first time it shrinks or unmaps one.
const unicodeText = fc.string({ unit: "binary", maxLength: 300 });
// Text that has broken services before: NUL (PostgreSQL refuses it in text), lone surrogates,
// bidi overrides, line breaks, scripts and emoji beyond Latin-1.
const nastyText = fc.constantFrom("nul\u0000byte", "\u0000", "lone \ud800 surrogate", "\udfff", "bidi \u202e txet", "two\nlines\r\n", "Bot — 24/7", "日本語エージェント", "🤖 Helper", "  ", "\u00a0");
const hex = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${min},${max}}$`));
const garbageText = fc.oneof(fc.string({ maxLength: 60 }), unicodeText, headerValue);

const sentAs = fc.constantFrom("x-api-key" as const, "bearer" as const);
const rawAs = fc.constantFrom("x-api-key" as const, "bearer" as const, "authorization" as const);
const rental = fc.constantFrom<keyof World["codes"]>("active", "active", "active", "failing", "noWebhook", "brokenCredentials", "expired", "cancelled");
const codeShape = fc.constantFrom("plain" as const, "upper" as const, "uuid" as const);
const none = fc.constant({ kind: "none" as const });

const renterCredential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant("code" as const), which: rental, as: sentAs, shape: codeShape }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: headerValue, as: rawAs }) },
  // Well-formed codes that match nothing: kept rare, they spend the failed-lookup budgets.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: hex(8, 32), as: sentAs }) },
  { weight: 2, arbitrary: none },
);
const ownerCredential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("ownerKey" as const), as: sentAs }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: fc.oneof(headerValue, hex(8, 64).map((h) => `rck_${h}`)), as: rawAs }) },
  { weight: 2, arbitrary: none },
);
const anyCredential: fc.Arbitrary<Credential> = fc.oneof(
  { weight: 3, arbitrary: none },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: headerValue, as: rawAs }) },
);
const cookie: fc.Arbitrary<Cookie> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "session" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raw" as const), value: fc.oneof(headerValue, fc.base64String({ maxLength: 64 }).map((t) => `ars_session=${t}`)) }) },
);
const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=xyz",
      "multipart/form-data",
      "application/problem+json",
    ),
  },
  { weight: 1, arbitrary: headerValue },
);
const contentLength = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom("0", "-1", "abc", "1e3", "99999999999", " 12 ", ""), fc.nat().map(String)) },
);
const ip = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) }, // a fresh address: rate limits do not answer first
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom("", "unknown", "::1", "1.1.1.1, 2.2.2.2", "2001:db8::1"), headerValue) },
);

function bodyOf(near: fc.Arbitrary<unknown>): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ kind: "bytes" as const, bytes })) },
    { weight: 1, arbitrary: unicodeText.map((text) => ({ kind: "text" as const, text })) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: "json" as const, value })) },
    { weight: 16, arbitrary: near.map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: fc.tuple(near, fc.nat()).map(([value, cut]) => ({ kind: "truncated" as const, value, cut })) },
    { weight: 1, arbitrary: fc.boolean().map((declare) => ({ kind: "oversize" as const, declare })) },
  );
}

// The first value most of the time, each other one now and then.
function mostly(valid: fc.Arbitrary<unknown>, ...others: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3 * others.length, arbitrary: valid }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));
}

// A near-valid object: each field mostly present and mostly valid, else garbage; sometimes an
// unknown field besides.
function nearObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const maybe = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [
      k,
      fc.option(fc.oneof({ weight: 10, arbitrary: v }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }), { freq: 12 }),
    ]),
  );
  return fc
    .tuple(
      fc.record(maybe),
      fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })) }),
    )
    .map(([object, extra]) => {
      const present = Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null));
      return extra ? { ...present, [extra[0]]: extra[1] } : present;
    });
}

const usdcAmount = mostly(
  fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.constantFrom("2", "10.5", "0.000001")),
  fc.double(),
  fc.integer(),
  fc.constantFrom("", "0.0000001", "1e3", "-1", "ten", "1000001"),
  fc.constant(null),
);
const listing = nearObject({
  // Names outside Latin-1 too: they travel to the webhook in X-Agent-Name.
  name: mostly(fc.string({ minLength: 2, maxLength: 60 }), unicodeText.map((t) => t.slice(0, 50)), nastyText),
  description: mostly(fc.string({ minLength: 1, maxLength: 520 }), nastyText),
  category: mostly(fc.constantFrom(...CATEGORIES), fc.string({ maxLength: 10 })),
  skills: fc.array(mostly(fc.constantFrom("code-review", "sql", "faq"), fc.string({ maxLength: 40 })), { maxLength: 10 }),
  channels: fc.array(mostly(fc.constantFrom("API", "Telegram", "Discord", "Slack"), fc.string({ maxLength: 10 })), { minLength: 1, maxLength: 5 }),
  pricePerHour: usdcAmount,
  pricePerDay: usdcAmount,
  pricePerMonth: usdcAmount,
});
const address = mostly(hex(40, 40).map((h) => `0x${h}`), fc.string({ maxLength: 44 }));

// --- each route, as Next.js would route to it ---------------------------------------------------

type Module = Partial<Record<Method, (req: Request, ctx: { params: Promise<Record<string, unknown>> }) => Response | Promise<Response>>>;
type Route = {
  path: string;
  mod: unknown;
  serves: Method[];
  credential: fc.Arbitrary<Credential>;
  body: fc.Arbitrary<Body>;
  /** Owner routes: which key pool, and whether the path has an agent id. */
  pool?: keyof World["owners"];
  dynamicId?: boolean;
  /** Headers this route needs to be reached at all (e.g. Sec-Fetch-Site on the e-mail callback). */
  headers?: fc.Arbitrary<[string, string][]>;
};

const noBody = bodyOf(fc.jsonValue({ maxDepth: 2 }));
const sameOrigin = fc.oneof(
  { weight: 4, arbitrary: fc.constant<[string, string][]>([["sec-fetch-site", "same-origin"]]) },
  { weight: 1, arbitrary: fc.constant<[string, string][]>([["origin", ORIGIN]]) },
  { weight: 1, arbitrary: fc.constant<[string, string][]>([]) },
);

const ROUTES: Route[] = [
  {
    path: "/api/v1/chat",
    mod: V1_CHAT,
    serves: ["POST"],
    credential: renterCredential,
    body: bodyOf(nearObject({ message: fc.oneof(fc.string({ maxLength: 200 }), unicodeText, nastyText, fc.constantFrom("fail", "", "x".repeat(10_001))) })),
  },
  { path: "/api/v1/status", mod: V1_STATUS, serves: ["GET"], credential: renterCredential, body: noBody },
  { path: "/api/v1/openapi.json", mod: V1_OPENAPI, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api/v1/nope/deeper", mod: V1_CATCH_ALL, serves: [], credential: renterCredential, body: noBody },
  { path: "/api/v1", mod: V1_ROOT, serves: [], credential: renterCredential, body: noBody },
  { path: "/api/public/agents", mod: PUBLIC_AGENTS, serves: ["GET", "POST"], credential: ownerCredential, body: bodyOf(listing), pool: "agents" },
  {
    path: "/api/public/agents/[id]",
    mod: PUBLIC_AGENT,
    serves: ["GET", "PATCH", "DELETE"],
    credential: ownerCredential,
    body: bodyOf(listing),
    pool: "agent",
    dynamicId: true,
  },
  {
    path: "/api/public/agents/[id]/connect",
    mod: PUBLIC_AGENT_CONNECT,
    serves: ["POST"],
    credential: ownerCredential,
    // Only URLs that answer at once: the test's webhook, a refused port, and malformed ones (never
    // a DNS name or a private network address, which would wait for a timeout).
    body: bodyOf(
      nearObject({
        webhookUrl: mostly(
          fc.constantFrom("HOOK", "HOOK", "HOOK_FAIL", "CLOSED"),
          fc.constantFrom("not a url", "ftp://127.0.0.1/x", "http://user:pw@127.0.0.1/hooks", "https://", "javascript:alert(1)", "http://[::1"),
        ),
        webhookToken: mostly(fc.base64String({ minLength: 44, maxLength: 80 }), fc.string({ maxLength: 40 }), unicodeText, nastyText.map((t) => t.padEnd(40, "x"))),
      }),
    ),
    pool: "connect",
    dynamicId: true,
  },
  { path: "/api/public/stats", mod: PUBLIC_STATS, serves: ["GET"], credential: ownerCredential, body: noBody, pool: "stats" },
  { path: "/api/public/nope", mod: PUBLIC_CATCH_ALL, serves: [], credential: ownerCredential, body: noBody },
  { path: "/api/public", mod: PUBLIC_ROOT, serves: [], credential: ownerCredential, body: noBody },
  {
    path: "/api/checkout/quote",
    mod: CHECKOUT_QUOTE,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        agentId: mostly(fc.constant("PAYABLE"), fc.uuid(), fc.string({ maxLength: 40 })),
        durationType: mostly(fc.constantFrom("hour", "day", "month"), fc.string({ maxLength: 8 })),
        channel: mostly(fc.constantFrom("API", "Telegram", "Discord", "Slack"), fc.string({ maxLength: 8 })),
        renter: address,
      }),
    ),
  },
  {
    path: "/api/checkout/confirm",
    mod: CHECKOUT_CONFIRM,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        txHash: fc.oneof(fc.constant("PAID"), hex(64, 64).map((h) => `0x${h}`), fc.string({ maxLength: 70 })),
        claimSecret: mostly(fc.constantFrom("CLAIM", "CLAIM"), fc.base64String({ maxLength: 64 }), fc.string({ maxLength: 70 })),
      }),
    ),
  },
  { path: "/api/auth/nonce", mod: AUTH_NONCE, serves: ["GET"], credential: anyCredential, body: noBody },
  {
    path: "/api/auth/siwe",
    mod: AUTH_SIWE,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        message: mostly(fc.constantFrom("SIWE_SIGNED", "SIWE_UNSIGNED", "SIWE_STALE_NONCE"), fc.string({ maxLength: 400 })),
        signature: mostly(fc.constant("SIGNATURE"), hex(130, 130).map((h) => `0x${h}`), hex(2, 300).map((h) => `0x${h}`), fc.string({ maxLength: 40 })),
      }),
    ),
  },
  {
    path: "/api/auth/email",
    mod: AUTH_EMAIL,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        email: fc.oneof(
          fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,20}$/).map((local) => `${local}@example.com`),
          fc.emailAddress(),
          fc.string({ maxLength: 300 }),
          nastyText.map((t) => `${t}@example.com`),
        ),
      }),
    ),
  },
  {
    path: "/api/auth/email/callback",
    mod: AUTH_CALLBACK,
    serves: ["POST"],
    credential: anyCredential,
    body: fc.oneof(
      { weight: 3, arbitrary: fc.oneof(fc.base64String({ maxLength: 60 }), fc.string({ maxLength: 60 })).map((token) => ({ kind: "text" as const, text: new URLSearchParams({ token }).toString() })) },
      { weight: 2, arbitrary: noBody },
    ),
    headers: sameOrigin,
  },
  { path: "/api/auth/session", mod: AUTH_SESSION, serves: ["GET"], credential: anyCredential, body: noBody },
  {
    path: "/api/auth/sign-out",
    mod: AUTH_SIGN_OUT,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(nearObject({ everywhere: fc.boolean() })),
    headers: sameOrigin,
  },
  // Crons: the right secret is never sent (a run would sweep the whole shared test database).
  { path: "/api/cron/health-checks", mod: CRON_HEALTH_CHECKS, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  { path: "/api/cron/release-rentals", mod: CRON_RELEASE, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  { path: "/api/cron/sync-escrow", mod: CRON_SYNC, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  { path: "/api/health", mod: HEALTH, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api", mod: API_ROOT, serves: [], credential: anyCredential, body: noBody },
  { path: "/api/nope/deeper", mod: API_CATCH_ALL, serves: [], credential: anyCredential, body: noBody },
];

function caseOf(route: Route): fc.Arbitrary<Case> {
  const method = route.serves.length
    ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...route.serves) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) })
    : fc.constantFrom(...METHODS);
  return fc.record({
    method,
    credential: route.credential,
    cookie,
    contentType,
    contentLength,
    ip,
    extraHeaders: fc.tuple(route.headers ?? fc.constant([]), fc.array(fc.tuple(headerName, headerValue), { maxLength: 3 })).map(([a, b]) => [...a, ...b]),
    body: route.body,
    pick: fc.nat(),
    id: fc.constantFrom("own" as const, "own" as const, "own" as const, "other" as const, "random" as const, "garbage" as const),
    uuid: fc.uuid(),
    garbageId: garbageText,
  });
}

// --- from a case to a Request -------------------------------------------------------------------

// Deriving a wallet's address is elliptic-curve work: a few, reused, sign the SIWE messages.
const WALLETS = Array.from({ length: 8 }, () => privateKeyToAccount(generatePrivateKey()));

// Placeholders in generated bodies that stand for the world's real values.
async function resolvePlaceholders(value: unknown, route: Route, pick: number): Promise<unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const swap: Partial<Record<string, () => unknown>> = {
    HOOK: () => world.hookUrl,
    HOOK_FAIL: () => world.hookUrl.replace("/hooks/agent", "/fail"),
    CLOSED: () => world.closedUrl,
    PAYABLE: () => world.payableAgentId,
    PAID: () => world.paidTxHash,
    CLAIM: () => world.paidClaimSecret,
  };
  for (const [key, v] of Object.entries(out)) if (typeof v === "string" && Object.hasOwn(swap, v)) out[key] = swap[v]!();
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

async function bodyBytes(body: Body, route: Route, pick: number): Promise<Uint8Array | null> {
  switch (body.kind) {
    case "none":
      return null;
    case "bytes":
      return body.bytes;
    case "text":
      return new TextEncoder().encode(body.text);
    case "json":
      return new TextEncoder().encode(JSON.stringify(await resolvePlaceholders(body.value, route, pick)) ?? "null");
    case "truncated": {
      const text = JSON.stringify(await resolvePlaceholders(body.value, route, pick)) ?? "null";
      return new TextEncoder().encode(text.slice(0, body.cut % (text.length + 1)));
    }
    case "oversize":
      return OVERSIZE;
  }
}

async function toRequest(route: Route, c: Case): Promise<{ req: Request; params: Record<string, unknown> }> {
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
    const fresh = route.path === "/api/auth/sign-out" && (await createSession(world.accountId, { method: "email", userAgent: "fuzz" })).cookie;
    headers.set("cookie", fresh ? fresh.split(";")[0] : world.sessionCookie);
  }
  if (c.contentType !== null) headers.set("content-type", c.contentType);
  for (const [name, value] of c.extraHeaders) headers.set(name, value);

  const canHaveBody = c.method !== "GET" && c.method !== "HEAD";
  const body = canHaveBody ? await bodyBytes(c.body, route, c.pick) : null;
  if (body && c.body.kind === "oversize" && c.body.declare) headers.set("content-length", String(body.byteLength));
  if (c.contentLength !== null) headers.set("content-length", c.contentLength);

  let params: Record<string, unknown> = {};
  let path = route.path;
  if (route.dynamicId) {
    const id =
      c.id === "own" ? (owner?.agentId ?? c.uuid)
      : c.id === "other" ? world.otherAgentId
      : c.id === "random" ? c.uuid
      : c.garbageId;
    params = { id };
    path = path.replace("[id]", encodeURIComponent(id));
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
async function check(route: Route, c: Case): Promise<void> {
  const { req, params } = await toRequest(route, c);
  const res = await dispatch(route, c.method, req, params);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  const fail = (why: string) => {
    throw new Error(`${why}: ${c.method} ${route.path} → ${res.status} ${type} ${text.slice(0, 300)}`);
  };
  if (process.env.FUZZ_STATS) {
    const key = `${route.path} ${res.status} ${res.status >= 400 ? String(JSON.parse(text).error).replace(/"[^"]*"/g, '"…"').slice(0, 70) : ""}`;
    STATS.set(key, (STATS.get(key) ?? 0) + 1);
  }

  if (/html/i.test(type)) fail("an HTML answer");
  let json: unknown = undefined;
  if (text.length > 0) {
    if (!/^application\/json/.test(type)) fail("a body that is not JSON");
    try {
      json = JSON.parse(text);
    } catch {
      fail("a body that does not parse as JSON");
    }
  }
  if (res.status >= 400) {
    const error = (json as { error?: unknown } | undefined)?.error;
    if (typeof error !== "string" || error.length === 0 || Object.keys(json as object).length !== 1) fail('an error body that is not {"error": "<message>"}');
    if (res.status >= 500) {
      const allowed = ALLOWED_5XX[route.path]?.[res.status];
      if (!allowed || !allowed.test(error as string)) fail("a 5xx the contract does not allow");
    }
  }
}

// FUZZ_STATS=1 prints how often each route answered each status and message (is the fuzz
// reaching the code behind the validation?).
const STATS = new Map<string, number>();
afterAll(() => {
  if (process.env.FUZZ_STATS) process.stdout.write([...STATS].sort().map(([k, v]) => `${v}\t${k}`).join("\n") + "\n");
});
describe.concurrent(`every API route, ${RUNS} random requests each (seed ${SEED})`, () => {
  ROUTES.forEach((route, index) => {
    // Generous: a loaded machine (the whole suite on two cores) may take minutes; nothing here waits on time.
    it.skipIf(ONLY !== undefined && ONLY !== route.path)(route.path, { timeout: 600_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(caseOf(route), (c) => check(route, c)),
        { numRuns: RUNS, seed: ONLY ? SEED : SEED + index, path: process.env.FUZZ_PATH },
      );
    });
  });
});
