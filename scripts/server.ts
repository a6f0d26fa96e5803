// The HTTP server behind `npm start` (and `npm run dev`): Next.js behind a plain node:http
// server, so the client address comes from the socket. Unless TRUST_PROXY=1, X-Forwarded-For is
// overwritten with it, so a client cannot choose the IP its rate limit is keyed on.
import "./load-env";
import { createServer } from "node:http";
import next from "next";
import { disconnectDatabase } from "@/lib/disconnect-database";
import { env } from "@/lib/env";
import { missingProductionSettingsMessage } from "@/lib/required-production-settings";
import { chatWebhookDeadlineMs } from "@/lib/webhooks/chat-deadline";
import { gracefulShutdown } from "./graceful-shutdown";
import { LISTEN_BACKLOG, SERVER_OPTIONS } from "./http-server-options";

// Time past the webhook timeout for a chat's last steps (recording the call, writing the reply).
const SHUTDOWN_MARGIN_MS = 5_000;
// Cron runs stop taking work before their maxDuration (300 s, app/api/cron/*/route.ts).
const CRON_RUN_MS = 300_000;

const dev = process.argv.includes("--dev");
// Production refuses to boot without APP_URL, SECRET_BOX_KEYS or CRON_SECRET, naming the missing
// ones, rather than answer 500 at their first use. `npm run dev` (--dev) listens on this machine
// only: it serves /dev/outbox, where every sign-in link is.
const missingSettings = !dev && env.NODE_ENV === "production" ? missingProductionSettingsMessage() : null;
if (missingSettings) {
  console.error(missingSettings);
  process.exit(1);
}
const host = dev ? "127.0.0.1" : undefined;
const app = next({ dev, turbopack: dev, port: env.PORT });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer(SERVER_OPTIONS, (req, res) => {
  if (!env.TRUST_PROXY || !req.headers["x-forwarded-for"]) {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
  }
  void handle(req, res);
});
if (dev) server.on("upgrade", app.getUpgradeHandler());

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish (a chat waits up to
// WEBHOOK_TIMEOUT_MS for its webhook's reply, 10 s more to reach it; a cron run up to its 300 s), close the database pool, exit
// 0. A second signal, or the deadline passing (a little past the longest of those in flight),
// exits 1 at once.
const shutdown = gracefulShutdown(server, {
  deadlineMs: chatWebhookDeadlineMs(env.WEBHOOK_TIMEOUT_MS) + SHUTDOWN_MARGIN_MS,
  allowanceOf: (req) => (req.url?.startsWith("/api/cron/") ? CRON_RUN_MS + SHUTDOWN_MARGIN_MS : 0),
  closeHooks: [{ name: "the database pool", close: disconnectDatabase }],
  exit: (code) => process.exit(code),
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void shutdown.begin(signal));
}

server.listen({ port: env.PORT, host, backlog: LISTEN_BACKLOG }, () => {
  console.log(`> Ready on http://localhost:${env.PORT} (${dev ? "development" : "production"})`);
});
