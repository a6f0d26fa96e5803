// The HTTP server behind `npm start` (and `npm run dev`): Next.js behind a plain node:http
// server, so the client address comes from the socket. Unless TRUST_PROXY=1, X-Forwarded-For is
// overwritten with it, so a client cannot choose the IP its rate limit is keyed on.
import "./load-env";
import { createServer } from "node:http";
import next from "next";
import { env } from "@/lib/env";

const dev = process.argv.includes("--dev");
const app = next({ dev, turbopack: dev, port: env.PORT });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((req, res) => {
  if (!env.TRUST_PROXY || !req.headers["x-forwarded-for"]) {
    req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "unknown";
  }
  void handle(req, res);
});
if (dev) server.on("upgrade", app.getUpgradeHandler());
server.listen(env.PORT, () => {
  console.log(`> Ready on http://localhost:${env.PORT} (${dev ? "development" : "production"})`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3_000).unref(); // keep-alive sockets may hold close()
  });
}
