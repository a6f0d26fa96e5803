// `npm run dev`: everything on one machine with no services installed. Without DATABASE_URL it
// serves an embedded PostgreSQL (PGlite, data in .data/pglite); with it, that database is used.
// Without CHAIN_RPC_URL it starts a local anvil chain (state in .data/pglite-chain) with a test
// USDC and the escrow deployed, and sets the CHAIN_* settings for itself and the app.
// Migrations are applied, the echo agent and the demo data (a rental paid on the local chain) are
// set up, and the Next.js dev server starts on PORT (3000), on 127.0.0.1 only. Rate limits use
// Upstash when its variables are set, else memory. Like Vercel Cron in production, it calls the
// cron routes on their schedule (vercel.json).
import "./load-env";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { applyMigrations } from "./apply-migrations";
import type { ChatPlatformMock } from "./chat-platform-mock";
import { demoBanner } from "./demo-banner";
import { ensureLocalChain, type LocalChain } from "./deploy-local-chain";
import { startDevChannels } from "./dev-channels";
import { type EchoAgent, startEchoAgent } from "./echo-agent";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { freePort } from "./free-port";
import { tsNodeArgs } from "./node-args";
import { type Anvil, startAnvil } from "./start-anvil";

const port = Number(process.env.PORT ?? 3000);
const dataDir = path.resolve(process.env.EMBEDDED_DATA_DIR ?? ".data/pglite");
// Beside the database folder, named after it, so each data folder has its own chain.
const chainDir = `${dataDir}-chain`;
const shown = (dir: string) => path.relative(process.cwd(), dir) || dir;

let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
let anvil: Anvil | undefined;
let echo: EchoAgent | undefined;
let platforms: ChatPlatformMock | undefined;
let server: ChildProcess | undefined;

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  // The server goes first: requests it still serves would otherwise meet a closed database (500).
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await echo?.close();
  await platforms?.close();
  await anvil?.stop(); // anvil writes its state file as it exits
  await embedded?.stop();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
// However this process ends, its children must not outlive it (anvil would keep its port).
process.on("exit", () => {
  server?.kill("SIGTERM");
  void anvil?.stop();
});

try {
  await start();
} catch (error) {
  console.error("npm run dev could not start:", error);
  await stop(1);
}

async function start() {
  // Before anything opens the data folder: a server still holding the port (an earlier
  // `npm run dev` that outlived its parent) would keep serving, and reach the new database.
  await freePort(port).catch(() => {
    throw new Error(`port ${port} on 127.0.0.1 is in use (another \`npm run dev\`?): stop it, or choose another PORT`);
  });
  if (!process.env.DATABASE_URL) {
    console.log(`Starting embedded PostgreSQL (data in ${shown(dataDir)})…`);
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined,
    });
    process.env.DATABASE_URL = embedded.url;
    process.env.DATABASE_POOL_MAX = "1"; // PGlite serves one connection at a time
    process.env.DATABASE_IDLE_TIMEOUT_MS = "0"; // and refuses a new one just after an idle one closed
  }
  process.env.ALLOW_PRIVATE_WEBHOOKS ??= "1"; // the demo agent listens on 127.0.0.1
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  // The cron routes refuse to run without a secret; the server child inherits this one.
  if (!process.env.CRON_SECRET) process.env.CRON_SECRET = randomBytes(32).toString("base64url");

  const chain = process.env.CHAIN_RPC_URL ? undefined : await startLocalChain();

  // A DATABASE_URL given behind a pooler comes with DATABASE_DIRECT_URL for migrations (scripts/migrate.ts).
  const migrationUrl = embedded ? embedded.url : process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL!;
  await applyMigrations(migrationUrl, (line) => console.log(line));

  const webhookToken = randomBytes(32).toString("base64url");
  echo = await startEchoAgent(webhookToken);
  platforms = await startDevChannels();
  // Imported only now: the database client and the chain settings are read when they load.
  const { forgetEarlierDeployment, seedDemo } = await import("./seed-demo");
  const { db } = await import("@/lib/db");
  if (chain?.deployed) {
    const cancelled = await forgetEarlierDeployment(chain.operator);
    if (cancelled) console.log(`The local chain was deployed afresh: ${cancelled} rental(s) paid on the earlier one marked cancelled.`);
  }
  const demo = await seedDemo(
    { url: echo.url, token: webhookToken },
    chain ? { ownerWallet: chain.owner, renterKey: chain.renterKey } : undefined,
  );
  await db.$disconnect(); // free the embedded server's single connection for the app

  server = spawn(process.execPath, tsNodeArgs("scripts/server.ts", ["--dev"]), {
    env: { ...process.env, NODE_ENV: "development", PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const child = server;
  child.on("exit", (code) => void stop(code ?? 1));
  await new Promise<void>((resolve) => {
    let partial = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        if (!quietLine(line)) process.stdout.write(`${line}\n`);
        if (line.includes("Ready on")) resolve();
      }
    });
  });

  const base = `http://localhost:${port}`;
  // The server listens on 127.0.0.1 only (scripts/server.ts --dev: /dev/outbox holds sign-in
  // links); this process calls it there, whichever address "localhost" resolves to first.
  const local = `http://127.0.0.1:${port}`;
  // Compile the renter routes once so the first curl answers at once.
  await Promise.allSettled(
    ["status", "chat"].map((p) => fetch(`${local}/api/v1/${p}`, { method: "OPTIONS", signal: AbortSignal.timeout(60_000) })),
  );

  console.log(
    demoBanner({
      base,
      demo,
      echo: { url: echo.url, token: webhookToken },
      chain,
      chainDir: shown(chainDir),
      settings: {
        rpcUrl: process.env.CHAIN_RPC_URL,
        chainId: process.env.CHAIN_ID,
        escrow: process.env.ESCROW_ADDRESS,
        usdc: process.env.USDC_ADDRESS,
      },
    }),
  );

  scheduleCrons(local);
}

// anvil with its state kept beside the database; the contracts deployed once and remembered.
async function startLocalChain(): Promise<LocalChain> {
  const chainPort = Number(process.env.EMBEDDED_CHAIN_PORT || 8545);
  if (!Number.isInteger(chainPort) || chainPort < 0 || chainPort > 65_535) {
    throw new Error(`EMBEDDED_CHAIN_PORT must be a port number (0 = any free port), not "${process.env.EMBEDDED_CHAIN_PORT}"`);
  }
  mkdirSync(chainDir, { recursive: true });
  console.log(`Starting local chain (anvil, state in ${shown(chainDir)})…`);
  const statePath = path.join(chainDir, "anvil-state.json");
  anvil = await startAnvil({ port: chainPort || undefined, statePath }).catch((error: Error) => {
    const hint = /in use/.test(error.message)
      ? "set EMBEDDED_CHAIN_PORT to another port, or CHAIN_RPC_URL (and the other chain settings) to use a chain of yours"
      : `an unreadable ${shown(statePath)} can be deleted: the chain then starts afresh`;
    throw new Error(`${error.message}\n(${hint})`);
  });
  const chain = await ensureLocalChain(anvil.rpcUrl, path.join(chainDir, "deployment.json"));
  console.log(
    chain.deployed
      ? `Deployed TestUSDC ${chain.usdc} and RentalEscrow ${chain.escrow} (block ${chain.startBlock}).`
      : `Using TestUSDC ${chain.usdc} and RentalEscrow ${chain.escrow} deployed earlier.`,
  );
  Object.assign(process.env, {
    CHAIN_ID: String(chain.chainId),
    CHAIN_RPC_URL: chain.rpcUrl,
    USDC_ADDRESS: chain.usdc,
    ESCROW_ADDRESS: chain.escrow,
    QUOTE_SIGNER_PRIVATE_KEY: chain.quoteSignerKey,
    OPERATOR_PRIVATE_KEY: chain.operatorKey,
    RENTER_PRIVATE_KEY: chain.renterKey,
    ARBITER_PRIVATE_KEY: chain.arbiterKey,
    CHAIN_CONFIRMATIONS: "1",
    ESCROW_START_BLOCK: String(chain.startBlock),
  });
  return chain;
}

// The cron routes on vercel.json's schedule. Each prints a line only when it did something.
function scheduleCrons(base: string) {
  const MINUTE = 60_000;
  const every = (periodMs: number, firstAfterMs: number, run: () => Promise<void>) => {
    setTimeout(() => void run(), firstAfterMs);
    setInterval(() => void run(), periodMs);
  };
  every(
    5 * MINUTE,
    5_000,
    cronTick(
      base,
      "health-checks",
      "health checks",
      (b) =>
        Boolean(b.checked) &&
        `${b.checked} checked, ${b.healthy} healthy, ${b.failed} failed, ${b.wentOffline} went offline, ${b.cameOnline} came online` +
          `${b.remaining ? `, ${b.remaining} left for the next run` : ""} (${b.durationMs} ms)`,
    ),
  );
  every(
    MINUTE,
    2_000,
    cronTick(
      base,
      "probe-rentals",
      "availability probes",
      (b) =>
        Boolean(b.probed) &&
        `${b.probed} agent(s) probed for ${b.rentals} running rental(s): ${b.up} up, ${b.down} down (${b.durationMs} ms)`,
    ),
  );
  every(
    MINUTE,
    10_000,
    cronTick(base, "sync-escrow", "escrow events", (b) => {
      const changed = counts(b, ["activated", "disputed", "cancelled", "completed"]);
      return changed && `blocks ${b.fromBlock}–${b.toBlock}, ${b.events} event(s): ${changed}`;
    }),
  );
  every(
    MINUTE,
    15_000,
    cronTick(base, "release-rentals", "release sweep", (b) =>
      counts(b, ["claimed", "sent", "replaced", "completed", "failed", "completedWithoutEscrow", "reconciled", "backedOff", "gaveUp"])
        .replace("completedWithoutEscrow", "completed without escrow")
        .replace("reconciled", "settled from the escrow's record")
        .replace("backedOff", "not releasable, retried later")
        .replace("gaveUp", "given up (docs/operations.md)"),
    ),
  );
  every(
    MINUTE,
    25_000,
    cronTick(base, "end-chats", "chat sweep", (b) =>
      counts(b, ["ended", "told", "unreachable"])
        .replace("ended", "chats disconnected at their rental's end")
        .replace("told", "notices queued")
        .replace("unreachable", "cannot be written to first"),
    ),
  );
  every(
    MINUTE,
    30_000,
    cronTick(base, "remind-rentals", "reminders", (b) =>
      counts(b, ["reminded", "emails", "notices"])
        .replace("reminded", "rental(s) reminded of their end")
        .replace("emails", "e-mail(s) queued")
        .replace("notices", "chat notice(s) queued"),
    ),
  );
  every(
    MINUTE,
    20_000,
    cronTick(base, "send-messages", "sender", (b) => {
      const said = (part: unknown, what: string) => {
        const line = counts((part ?? {}) as Summary, ["sent", "failed", "gaveUp", "throttled", "remaining"])
          .replace("failed", "failed (tried again later)")
          .replace("gaveUp", "given up")
          .replace("throttled", "throttled (429)")
          .replace("remaining", "left for the next run");
        return line && `${what}: ${line}`;
      };
      return [said(b.emails, "e-mails"), said(b.notices, "chat notices")].filter(Boolean).join("; ");
    }),
  );
}

// Next's request log line for a successful cron call: the [cron] line says what matters.
function quietLine(line: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the terminal colour codes removed here.
  const plain = line.replace(/\x1b\[[0-9;]*m/g, ""); // without terminal colours
  return /^\s*(GET|POST) \/api\/cron\/[\w-]+ 2\d\d in /.test(plain);
}

type Summary = Record<string, number | string | boolean>;

// "2 claimed, 2 sent" for the non-zero counts; "" when all are zero.
function counts(body: Summary, names: string[]): string {
  return names
    .filter((n) => Number(body[n]) > 0)
    .map((n) => `${body[n]} ${n}`)
    .join(", ");
}

// One run of a cron route. A run still going when the next is due is not doubled; the same error
// twice in a row is printed once.
function cronTick(base: string, route: string, label: string, describe: (body: Summary) => string | null | false) {
  let running = false;
  let lastError = "";
  return async () => {
    if (running || stopping) return;
    running = true;
    let error = "";
    try {
      const res = await fetch(`${base}/api/cron/${route}`, {
        headers: { Authorization: `Bearer ${process.env.CRON_SECRET}` },
        signal: AbortSignal.timeout(330_000),
      });
      const body = (await res.json().catch(() => ({}))) as Summary;
      if (!res.ok) error = `HTTP ${res.status} ${body.error ?? ""}`.trim();
      else {
        const line = describe(body);
        if (line) console.log(`[cron] ${label}: ${line}`);
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      running = false;
    }
    if (error && error !== lastError && !stopping) console.log(`[cron] ${label}: ${error}`);
    lastError = error;
  };
}
