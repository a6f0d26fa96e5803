// `npm run dev`: everything on one machine with no services installed. Without DATABASE_URL it
// serves an embedded PostgreSQL (PGlite, data in .data/pglite); with it, that database is used.
// Migrations are applied, the echo agent and the demo data are set up, and the Next.js dev
// server starts on PORT (3000). Rate limits use Upstash when its variables are set, else memory.
// Like Vercel Cron in production, it calls the cron routes on their schedule (vercel.json).
import "./load-env";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { applyMigrations } from "./apply-migrations";
import { startEchoAgent } from "./echo-agent";
import { startEmbeddedPostgres } from "./embedded-postgres";

const port = Number(process.env.PORT ?? 3000);
const dataDir = path.resolve(process.env.EMBEDDED_DATA_DIR ?? ".data/pglite");

let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
if (!process.env.DATABASE_URL) {
  console.log(`Starting embedded PostgreSQL (data in ${path.relative(process.cwd(), dataDir) || dataDir})…`);
  embedded = await startEmbeddedPostgres({ dataDir, port: process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined });
  process.env.DATABASE_URL = embedded.url;
  process.env.DATABASE_POOL_MAX = "1"; // PGlite serves one connection at a time
}
process.env.ALLOW_PRIVATE_WEBHOOKS ??= "1"; // the demo agent listens on 127.0.0.1
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// The cron routes refuse to run without a secret; the server child inherits this one.
if (!process.env.CRON_SECRET) process.env.CRON_SECRET = randomBytes(32).toString("base64url");

await applyMigrations(process.env.DATABASE_URL!, (line) => console.log(line));

const webhookToken = randomBytes(32).toString("base64url");
const echo = await startEchoAgent(webhookToken);
// Imported only now: the database client reads DATABASE_URL when it loads.
const { seedDemo } = await import("./seed-demo");
const { db } = await import("@/lib/db");
const demo = await seedDemo({ url: echo.url, token: webhookToken });
await db.$disconnect(); // free the embedded server's single connection for the app

const server = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/server.ts", "--dev"], {
  env: { ...process.env, NODE_ENV: "development", PORT: String(port) },
  stdio: ["ignore", "pipe", "inherit"],
});
server.stdout.pipe(process.stdout);

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  await echo.close();
  await embedded?.stop();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
server.on("exit", (code) => void stop(code ?? 1));

await new Promise<void>((resolve) => {
  server.stdout.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("Ready on")) resolve();
  });
});

const base = `http://localhost:${port}`;
// Compile the renter routes once so the first curl answers at once.
await Promise.allSettled(
  ["status", "chat"].map((p) =>
    fetch(`${base}/api/v1/${p}`, { method: "OPTIONS", signal: AbortSignal.timeout(60_000) }),
  ),
);

console.log(`
────────────────────────────────────────────────────────────────────────
 Agent Rental Service is running at ${base}

 Demo owner        ${demo.accountId}
 Owner API key     ${demo.apiKey}   (shown once; new on every start)
 Demo agent        Echo Agent (${demo.agentId})
 Demo rental code  ${demo.code}
 E-mail outbox     ${base}/dev/outbox

 Try it:
   curl -s ${base}/api/v1/status -H "X-API-Key: ${demo.code}"

   curl -s ${base}/api/v1/chat -H "X-API-Key: ${demo.code}" \\
     -H "Content-Type: application/json" -d '{"message":"Hello, agent!"}'
────────────────────────────────────────────────────────────────────────
DEMO_RENTAL_CODE=${demo.code}
`);

// Health checks every 15 minutes, as vercel.json schedules them; the first soon after start.
const HEALTH_CHECK_PERIOD_MS = 15 * 60_000;
async function tickHealthChecks(): Promise<void> {
  try {
    const res = await fetch(`${base}/api/cron/health-checks`, {
      headers: { Authorization: `Bearer ${process.env.CRON_SECRET}` },
      signal: AbortSignal.timeout(330_000),
    });
    const body = await res.json();
    if (!res.ok) return console.log(`[cron] health checks: HTTP ${res.status} ${body.error ?? ""}`);
    console.log(
      `[cron] health checks: ${body.checked} checked, ${body.healthy} healthy, ${body.failed} failed, ` +
        `${body.wentOffline} went offline, ${body.cameOnline} came online` +
        `${body.remaining ? `, ${body.remaining} left for the next run` : ""} (${body.durationMs} ms)`,
    );
  } catch (error) {
    console.log(`[cron] health checks: ${error instanceof Error ? error.message : String(error)}`);
  }
}
setTimeout(() => void tickHealthChecks(), 5_000);
setInterval(() => void tickHealthChecks(), HEALTH_CHECK_PERIOD_MS);
