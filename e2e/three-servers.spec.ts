// Many instances, one truth (issue 26): three `npm start` servers behind a round-robin proxy,
// sharing the browser tests' PostgreSQL through PgBouncer in transaction mode and one Redis
// through the Upstash bridge, as a deployment with several instances would. No page is opened:
// every step is a real HTTP request.
//   a) the renter API's 60/min bucket holds across the three: of 61 requests spread round-robin,
//      exactly 60 pass and the 61st is refused, whichever server it reaches;
//   b) every cron route of vercel.json called on all three at once completes each rental, its
//      release on chain, its e-mails and its notices exactly once;
//   c) a rental disputed through one server is refused by the other two within the rental cache's
//      documented time (RENTAL_LOOKUP_TTL_MS);
//   d) a chat binding made through one server is used by the other two;
//   e) a server SIGKILLed while a chat waits on a slow webhook loses no paid work: the renter's
//      retry through the proxy succeeds and the call is recorded once.
// The time @upstash/ratelimit is given for (a)'s bucket is pinned at the bridge (its refill would
// otherwise depend on how fast this machine sends 61 requests); nothing waits on a pause.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { createPublicClient, createWalletClient, type Hex, http, parseSignature } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import * as RentalEscrow from "../lib/chain/generated/RentalEscrow";
import { permitTypes, tokenPermitAbi } from "../lib/chain/permit-typed-data";
import { freePort } from "../scripts/free-port";
import { ensurePgBouncer, type StartedPgBouncer } from "../scripts/test-services";
import { type Command, startUpstashBridge } from "../test/upstash-bridge";
import { afterRentalsEnd, keys, operatorCli, sql } from "./stack";

// The renter API's cache of rentals found by their code: the default the docs state (docs/api.md).
const RENTAL_LOOKUP_TTL_MS = 1_000;

test.describe.configure({ mode: "serial" });

type AppServer = { index: number; url: string; process: ChildProcess; output: () => string; exited: Promise<void> };

let servers: AppServer[] = [];
const spawned: AppServer[] = [];
let proxy: RoundRobinProxy;
let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
let webhook: Webhook;
let resend: ResendStandIn;
let ownPgBouncer: StartedPgBouncer | undefined;
let settings: Record<string, string>;
// Buckets pinned at the bridge: key → the time the servers' limiter is told it is.
const pinnedBuckets = new Map<string, number>();
// Agent A's rental serves (a) and (e); agent B's rentals serve (b), (c) and (d).
let agentB: string;
const rentals: Record<"a" | "disputed" | "telegram" | "released", { id: string; code: string }> = {} as never;

/** A client address of its own for each part, so no part spends another's bucket (and a rerun starts afresh). */
const clientIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const checkoutIp = clientIp();

test.beforeAll(async () => {
  const base = JSON.parse(process.env.E2E_SERVER_SETTINGS!) as Record<string, string>;
  const direct = new URL(process.env.E2E_DATABASE_URL!);
  if (!process.env.PGBOUNCER_URL) ownPgBouncer = await ensurePgBouncer(Number(direct.port || 5432), () => {});
  const pooled = new URL(process.env.PGBOUNCER_URL ?? ownPgBouncer!.url);
  pooled.pathname = direct.pathname;

  [bridge, webhook, resend, proxy] = await Promise.all([
    startUpstashBridge({ alter: pinLimiterClock }),
    startWebhook(),
    startResendStandIn(),
    startRoundRobinProxy(),
  ]);
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  settings = {
    ...base,
    APP_URL: proxy.url,
    DATABASE_URL: pooled.toString(),
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
    // Behind the proxy: the client is the last X-Forwarded-For entry, which the proxy passes on.
    TRUST_PROXY: "1",
    RENTAL_LOOKUP_TTL_MS: String(RENTAL_LOOKUP_TTL_MS),
    // The limiter fails closed after this; a busy CI machine answering 61 requests at once must not
    // turn a slow Redis round trip into a refusal (what is counted here is the shared bucket).
    RATE_LIMIT_TIMEOUT_MS: "10000",
    RESEND_API_KEY: "re_three_servers_test",
    RESEND_BASE_URL: resend.url,
  };
  // The three start at once; the listings are made meanwhile with the operator CLI.
  const listed = makeListings();
  servers = await Promise.all(ports.map((port, index) => startAppServer(index, port)));
  proxy.route(servers.map((s) => s.url));
  const { agentA } = await listed;
  ({ agentB } = await listed);
  // One renter wallet pays them all, one after another (its nonces).
  rentals.a = await checkout(agentA, "API");
  rentals.disputed = await checkout(agentB, "API");
  rentals.telegram = await checkout(agentB, "Telegram");
  rentals.released = await checkout(agentB, "API");
});

test.afterAll(async () => {
  await Promise.all(spawned.map(stopAppServer));
  await Promise.all([proxy?.close(), bridge?.close(), webhook?.close(), resend?.close()]);
  await ownPgBouncer?.stop();
  if (process.env.E2E_SERVER_LOG) for (const s of spawned) console.log(`--- server ${s.index}\n${s.output()}`);
});

test("a) the renter API's 60/min bucket holds across the three servers: the 61st request is refused", async () => {
  const ip = clientIp();
  pinnedBuckets.set(`ars:rl:renter-api:${ip}`, Date.now());
  const status = () => fetch(`${proxy.url}/api/v1/status`, { headers: { "X-API-Key": rentals.a.code, "X-Forwarded-For": ip } });
  const before = proxy.served();
  const answers = await Promise.all(Array.from({ length: 61 }, status));
  const codes = answers.map((r) => r.status).sort();
  expect(codes.filter((c) => c === 200)).toHaveLength(60);
  expect(codes.filter((c) => c === 429)).toHaveLength(1);
  const refused = answers.find((r) => r.status === 429)!;
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(await refused.json()).toEqual({ error: expect.stringMatching(/^Too many requests; retry in/) });
  // Spread round-robin: each server answered 20 or 21 of them.
  const spread = proxy.served().map((n, i) => n - before[i]);
  expect(spread.sort()).toEqual([20, 20, 21]);
  // And each server, asked directly, refuses the next one.
  for (const s of servers) {
    const res = await fetch(`${s.url}/api/v1/status`, { headers: { "X-API-Key": rentals.a.code, "X-Forwarded-For": ip } });
    expect(res.status, `server ${s.index}`).toBe(429);
  }
});

test("c) a rental disputed through one server is refused by the other two within the rental cache's time", async () => {
  const [first, ...others] = servers;
  // Each request from an address of its own: asked until refused, a fast machine would otherwise
  // spend the 60/min bucket within the cache's time and see a 429 instead of the answer.
  const chat = (s: AppServer, message: string) =>
    fetch(`${s.url}/api/v1/chat`, {
      method: "POST",
      headers: { "X-API-Key": rentals.disputed.code, "X-Forwarded-For": clientIp(), "Content-Type": "application/json" },
      body: JSON.stringify({ message }),
    });
  // The other two hold the rental in their cache, found and active.
  for (const s of others) expect((await chat(s, `before, via ${s.index}`)).status).toBe(200);

  // The renter opens the dispute on chain; server 0's event reader records it.
  const [{ escrow_id }] = await sql<{ escrow_id: Hex }>("SELECT escrow_id FROM rentals WHERE id = $1", [rentals.disputed.id]);
  const transport = http(process.env.E2E_RPC_URL);
  const wallet = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(keys.renter()) });
  const hash = await wallet.writeContract({
    address: process.env.E2E_ESCROW as Hex,
    abi: RentalEscrow.abi,
    functionName: "openDispute",
    args: [escrow_id],
  });
  await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt({ hash });
  await cron(first, "sync-escrow");
  const recordedAt = Date.now();
  expect((await sql<{ status: string }>("SELECT status FROM rentals WHERE id = $1", [rentals.disputed.id]))[0].status).toBe("disputed");

  // Each of the other two may still answer from its cache, but no request it gets once the cache's
  // time has passed since the dispute was recorded may be served: ask until one is refused.
  for (const s of others) {
    for (let attempt = 0; ; attempt++) {
      const sentAt = Date.now();
      const res = await chat(s, `after, via ${s.index}, attempt ${attempt}`);
      if (res.status === 403) {
        expect(await res.json()).toEqual({ error: "This rental is disputed; only active rentals can chat." });
        break;
      }
      expect(res.status).toBe(200);
      expect(sentAt - recordedAt, `server ${s.index} served the disputed rental past the cache's time`).toBeLessThan(RENTAL_LOOKUP_TTL_MS);
    }
  }
});

test("d) a chat binding made through one server is used by the other two", async () => {
  const user = randomInt(1, 2 ** 40);
  const botSaid = async () =>
    (await platformCalls()).filter((c) => c.method === "sendMessage" && c.body.chat_id === String(user)).map((c) => String(c.body.text));
  await telegramSends(servers[0], user, `/start ${rentals.telegram.code}`);
  await expect.poll(botSaid).toEqual([expect.stringContaining("Connected to Three Servers B")]);
  for (const s of servers.slice(1)) {
    await telegramSends(s, user, `Hello through server ${s.index}`);
    await expect.poll(async () => (await botSaid()).at(-1)).toBe(`Echo: Hello through server ${s.index}`);
  }
  // The agent got both messages from the binding made on server 0: its channel and session.
  const got = webhook.deliveries.filter((d) => d.type !== "health_check" && String(d.message).startsWith("Hello through server"));
  expect(got.map((d) => d.channel)).toEqual(["Telegram", "Telegram"]);
  expect(new Set(got.map((d) => d.sessionKey)).size).toBe(1);
});

test("b) every cron route called on all three servers at once completes each rental, release, e-mail and notice exactly once", async () => {
  const crons = (JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string }[] }).crons.map((c) => c.path);
  expect(crons.length).toBeGreaterThan(3);
  const ended = [rentals.telegram, rentals.released];
  const telegramChat = (await sql<{ chat_id: string }>("SELECT chat_id FROM chat_bindings WHERE rental_id = $1", [rentals.telegram.id]))
    .map((r) => r.chat_id)
    .at(0);
  const platformBefore = (await platformCalls()).length;
  // What the bot told the rental's chat (other tests' chats may be told in these rounds too).
  const told = async () =>
    (await platformCalls())
      .slice(platformBefore)
      .filter(
        (c) =>
          c.method === "sendMessage" && c.body.chat_id === telegramChat && String(c.body.text).includes("so this chat is disconnected"),
      );
  await afterRentalsEnd(agentB, 2 * 3600, async () => {
    // One round: every route on every server, all at once. Work one route leaves to another (an
    // e-mail or a chat notice queued for the sender) is done by a later round: at most four.
    const round = () => Promise.all(crons.flatMap((path) => servers.map((s) => cronPath(s, path))));
    for (let rounds = 1; rounds <= 4; rounds++) {
      await round();
      const [{ completed }] = await sql<{ completed: number }>(
        "SELECT count(*)::int AS completed FROM rentals WHERE id = ANY($1::uuid[]) AND status = 'completed'",
        [ended.map((r) => r.id)],
      );
      const paidOut = ownerMails().filter((kind) => kind.startsWith("rental-paid-out:")).length;
      if (completed === ended.length && paidOut >= ended.length && (await told()).length > 0) break;
    }
  });

  // Each rental completed, and released on chain once.
  const chain = createPublicClient({ chain: foundry, transport: http(process.env.E2E_RPC_URL) });
  for (const rental of ended) {
    const [row] = await sql<{ status: string; escrow_id: Hex }>("SELECT status, escrow_id FROM rentals WHERE id = $1", [rental.id]);
    expect(row.status).toBe("completed");
    for (const eventName of ["RentalReleased", "RentalSettled"] as const) {
      const events = await chain.getContractEvents({
        address: process.env.E2E_ESCROW as Hex,
        abi: RentalEscrow.abi,
        eventName,
        args: { id: row.escrow_id },
        fromBlock: 0n,
      });
      expect(events, `${eventName} for ${rental.id}`).toHaveLength(1);
    }
    // The renter's and the owner's notices, once each.
    const notices = await sql<{ kind: string; n: number }>(
      "SELECT kind, count(*)::int AS n FROM notifications WHERE rental_id = $1 GROUP BY kind ORDER BY kind",
      [rental.id],
    );
    expect(notices).toEqual([
      { kind: "rental-ended", n: 1 },
      { kind: "rental-paid-out", n: 1 },
    ]);
  }
  // The disputed rental stays frozen.
  expect((await sql<{ status: string }>("SELECT status FROM rentals WHERE id = $1", [rentals.disputed.id]))[0].status).toBe("disputed");

  // Every e-mail went out once (by content and by idempotency key), those of the other tests' rows
  // the crons sent too; the owner got each of its own once: the dispute (queued by the event
  // reader in c, sent by whichever sender took it) and the two payouts. The renter has no address.
  const mails = resend.sent;
  expect(new Set(mails.map((m) => JSON.stringify([m.to, m.subject, m.text]))).size).toBe(mails.length);
  expect(new Set(mails.map((m) => m.key)).size).toBe(mails.length);
  expect(ownerMails().sort()).toEqual([`dispute-opened:${rentals.disputed.id}`, ...ended.map((r) => `rental-paid-out:${r.id}`)].sort());

  // The Telegram chat was told once that its rental is over.
  expect(telegramChat).toBeDefined();
  expect(await told()).toHaveLength(1);
});

test("e) a server killed mid-chat loses no paid work: the renter's retry through the proxy succeeds, recorded once", async () => {
  const ip = clientIp();
  const message = `kill me mid-chat ${randomBytes(4).toString("hex")}`;
  const send = (attempt: string) =>
    fetch(`${proxy.url}/api/v1/chat`, {
      method: "POST",
      headers: { "X-API-Key": rentals.a.code, "X-Forwarded-For": ip, "Content-Type": "application/json", "X-Test-Attempt": attempt },
      body: JSON.stringify({ message }),
    });
  const held = webhook.holdNext(message);
  const first = send("first");
  await held; // the webhook has the message: the chat is in flight on one server
  const victim = servers[proxy.upstreamOf("first")!];
  process.kill(-victim.process.pid!, "SIGKILL");
  await victim.exited;
  expect((await first).status).toBe(502); // the proxy's answer for a server that died mid-request

  const retry = await send("retry");
  expect(retry.status).toBe(200);
  expect(await retry.json()).toMatchObject({ success: true, response: `Echo: ${message}` });
  expect(proxy.upstreamOf("retry")).not.toBe(victim.index);
  // The webhook saw the message twice (the killed server's delivery, then the retry's); the service
  // recorded one call, the retry's, after its answer.
  expect(webhook.deliveries.filter((d) => d.message === message)).toHaveLength(2);
  await expect
    .poll(async () => sql<{ status_code: number }>("SELECT status_code FROM chat_calls WHERE rental_id = $1", [rentals.a.id]))
    .toEqual([{ status_code: 200 }]);
  // The other two still serve the rental.
  const usage = await fetch(`${proxy.url}/api/v1/status`, { headers: { "X-API-Key": rentals.a.code, "X-Forwarded-For": ip } });
  expect(usage.status).toBe(200);
  expect((await sql<{ n: number }>("SELECT count(*)::int AS n FROM chat_calls WHERE rental_id = $1", [rentals.a.id]))[0].n).toBe(1);
});

// ---------------------------------------------------------------------------------------------
// The setup: listings and rentals, the servers, and the stand-ins around them.

let ownerEmail: string;

/** The e-mails the Resend stand-in got for the test's owner, as "<kind>:<rental id>" of their idempotency keys. */
function ownerMails(): string[] {
  return resend.sent.filter((m) => m.to.includes(ownerEmail)).map((m) => String(m.key).split(":").slice(0, 2).join(":"));
}

/** The owner and its two listings, with the operator CLI (meanwhile the servers start). */
async function makeListings(): Promise<{ agentA: string; agentB: string }> {
  const token = randomBytes(32).toString("base64url");
  ownerEmail = `owner-three-${randomBytes(6).toString("hex")}@example.com`;
  const wallet = privateKeyToAccount(`0x${randomBytes(32).toString("hex")}`).address;
  const owner = await operatorCli(["owner:create", "--email", ownerEmail, "--wallet", wallet]);
  const agent = (name: string) =>
    operatorCli([
      "agent:create",
      "--owner",
      String(owner.accountId),
      "--name",
      name,
      "--price-hour",
      "2",
      "--channels",
      "API,Telegram",
      "--webhook-url",
      webhook.url,
      "--webhook-token",
      token,
    ]).then((a) => String(a.id));
  const [agentA, agentB] = await Promise.all([agent("Three Servers A"), agent("Three Servers B")]);
  return { agentA, agentB };
}

/**
 * A rental bought as a browser buys it, through the proxy: the quote (which checks the webhook
 * live), the renter's permit and createRentalWithPermit on chain, then the confirmation.
 */
async function checkout(agentId: string, channel: "API" | "Telegram"): Promise<{ id: string; code: string }> {
  const renter = privateKeyToAccount(keys.renter());
  const transport = http(process.env.E2E_RPC_URL);
  const chain = createPublicClient({ chain: foundry, transport });
  const wallet = createWalletClient({ chain: foundry, transport, account: renter });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${proxy.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": checkoutIp },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { quote, signature, claimSecret } = await post("/api/checkout/quote", {
    agentId,
    durationType: "hour",
    channel,
    renter: renter.address,
  });
  const terms = {
    ...quote,
    price: BigInt(quote.price),
    fee: BigInt(quote.fee),
    duration: BigInt(quote.duration),
    deadline: BigInt(quote.deadline),
  };
  const usdc = process.env.E2E_USDC as Hex;
  const escrow = process.env.E2E_ESCROW as Hex;
  const [[, name, version], nonce] = await Promise.all([
    chain.readContract({ address: usdc, abi: tokenPermitAbi, functionName: "eip712Domain" }),
    chain.readContract({ address: usdc, abi: tokenPermitAbi, functionName: "nonces", args: [renter.address] }),
  ]);
  const permit = parseSignature(
    await wallet.signTypedData({
      domain: { name, version, chainId: foundry.id, verifyingContract: usdc },
      types: permitTypes,
      primaryType: "Permit",
      message: { owner: renter.address, spender: escrow, value: terms.price + terms.fee, nonce, deadline: terms.deadline },
    }),
  );
  const hash = await wallet.writeContract({
    address: escrow,
    abi: RentalEscrow.abi,
    functionName: "createRentalWithPermit",
    args: [terms, signature, terms.deadline, Number(permit.v ?? BigInt(permit.yParity + 27)), permit.r, permit.s],
  });
  await chain.waitForTransactionReceipt({ hash });
  const rental = await post("/api/checkout/confirm", { txHash: hash, claimSecret });
  return { id: String(rental.id), code: String(rental.code) };
}

async function startAppServer(index: number, port: number): Promise<AppServer> {
  let output = "";
  // `npm start` in a process group of its own: SIGKILL to the group kills npm and the server.
  const child = spawn("npm", ["start", "--silent"], {
    env: { ...process.env, ...settings, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server = { index, url, process: child, output: () => output, exited };
  spawned.push(server); // stopped after the tests even if another one fails to start
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server ${index} exited (${child.exitCode}):\n${output}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server ${index} did not answer within 90 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return server;
}

async function stopAppServer(server: AppServer): Promise<void> {
  if (server.process.exitCode !== null || server.process.signalCode !== null) return;
  process.kill(-server.process.pid!, "SIGTERM");
  await server.exited;
}

// Pins `now` in @upstash/ratelimit's token-bucket script (EVAL/EVALSHA script numkeys key… then
// maxTokens, interval, refillRate, now, incrementBy) for the buckets in pinnedBuckets.
function pinLimiterClock(command: Command): Command {
  const [name, , numKeys, key] = command;
  if (!/^eval(sha)?$/i.test(name) || numKeys !== 1 || !pinnedBuckets.has(String(key))) return command;
  const args = command.slice(4);
  if (args.length !== 5) return command; // getRemaining and the refund take other arguments
  return [...(command.slice(0, 4) as Command), args[0], args[1], args[2], pinnedBuckets.get(String(key))!, args[4]];
}

function cron(server: AppServer, name: string): Promise<unknown> {
  return cronPath(server, `/api/cron/${name}`);
}

async function cronPath(server: AppServer, path: string): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${settings.CRON_SECRET}` } });
  if (!res.ok) throw new Error(`server ${server.index} ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

type PlatformCall = { method: string; body: Record<string, unknown> };
async function platformCalls(): Promise<PlatformCall[]> {
  return (await fetch(`${process.env.E2E_PLATFORM_MOCK_URL}/_calls`)).json();
}

async function telegramSends(server: AppServer, userId: number, text: string): Promise<void> {
  const res = await fetch(`${server.url}/api/channels/telegram`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": settings.TELEGRAM_WEBHOOK_SECRET },
    body: JSON.stringify({
      update_id: randomInt(1, 2 ** 47),
      message: {
        message_id: 1,
        date: 0,
        from: { id: userId, is_bot: false, first_name: "Ada" },
        chat: { id: userId, type: "private" },
        text,
      },
    }),
  });
  expect(res.status).toBe(200);
}

// An HTTP proxy that hands each request to the next server in turn (not each connection: clients
// keep connections alive). A server that refuses the connection (down) is skipped, as a load
// balancer's health check would; one that dies mid-request leaves the client a 502.
type RoundRobinProxy = {
  url: string;
  route(upstreams: string[]): void;
  served(): number[];
  upstreamOf(attempt: string): number | undefined;
  close(): Promise<void>;
};

async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let upstreams: URL[] = [];
  let served: number[] = [];
  const attempts = new Map<string, number>();
  let next = 0;
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const forward = (tries: number) => {
      const index = next++ % upstreams.length;
      const target = upstreams[index];
      const attempt = req.headers["x-test-attempt"];
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent: false },
        (answer) => {
          served[index]++;
          if (typeof attempt === "string") attempts.set(attempt, index);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      if (typeof attempt === "string") upstream.once("socket", () => attempts.set(attempt, index));
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED" && tries < upstreams.length) return forward(tries + 1);
        if (!res.headersSent) res.writeHead(502, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Bad gateway" }));
        else res.destroy();
      });
      upstream.end(body);
    };
    forward(1);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    route(urls) {
      upstreams = urls.map((u) => new URL(u));
      served = urls.map(() => 0);
    },
    served: () => [...served],
    upstreamOf: (attempt) => attempts.get(attempt),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The agents' webhook: answers health checks, echoes messages, records every delivery, and can hold
// the next delivery of a given message (never answered: its server is killed meanwhile).
type Delivery = { type?: string; message?: string; channel?: string; sessionKey?: string };
type Webhook = { url: string; deliveries: Delivery[]; holdNext(message: string): Promise<void>; close(): Promise<void> };

async function startWebhook(): Promise<Webhook> {
  const deliveries: Delivery[] = [];
  const holds = new Map<string, () => void>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Delivery;
    deliveries.push(payload);
    if (payload.type === "health_check") return res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    const hold = payload.message !== undefined ? holds.get(payload.message) : undefined;
    if (hold) {
      holds.delete(payload.message!);
      hold();
      return; // no answer: the server waiting on it is killed
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(`Echo: ${payload.message ?? ""}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/agent`,
    deliveries,
    holdNext: (message) => new Promise((resolve) => holds.set(message, resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Resend's API as far as the service uses it: POST /emails (and /emails/batch), every e-mail recorded.
type SentMail = { key: string | undefined; to: string[]; subject: string; text: string };
type ResendStandIn = { url: string; sent: SentMail[]; close(): Promise<void> };

async function startResendStandIn(): Promise<ResendStandIn> {
  const sent: SentMail[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    const key = req.headers["idempotency-key"] as string | undefined;
    const record = (mail: { to: string | string[]; subject: string; text: string }, i?: number) => {
      sent.push({ key: i === undefined ? key : `${key}#${i}`, to: [mail.to].flat(), subject: mail.subject, text: mail.text });
      return { id: `mail_${sent.length}` };
    };
    const send = (payload: unknown) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
    if (req.method === "POST" && req.url === "/emails") return send(record(body));
    if (req.method === "POST" && req.url === "/emails/batch") return send({ data: (body as never[]).map(record) });
    res.writeHead(404, { "Content-Type": "application/json" }).end('{"message":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
