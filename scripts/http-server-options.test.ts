// `npm start`'s server options (scripts/http-server-options.ts), on a plain node:http server with
// the same options: the kernel's accept queue and the keep-alive timeout clients are told. Nothing
// here depends on the machine's speed: the test process is kept busy on purpose.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http, { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS, LISTEN_BACKLOG, SERVER_OPTIONS } from "./http-server-options";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(backlog?: number): Promise<number> {
  const server = createServer(SERVER_OPTIONS, (_req, res) => res.end("ok"));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog }, resolve));
  return (server.address() as AddressInfo).port;
}

// Opens `count` connections to the port at once and prints how many the kernel completed: all
// of them, or as many as it had when none had come for 1.5 s (decided after the I/O already
// waiting is read, so a moment without CPU does not cut it short). Run with spawnSync, so this
// process accepts none meanwhile: only the listen queue holds them. Past its length a SYN is
// dropped, retried after 1 s and 3 s, and dropped again.
const CONNECT_ALL = `
const net = require("node:net");
const [port, count] = process.argv.slice(1).map(Number);
let connected = 0;
let last = Date.now();
const sockets = [];
const done = () => { console.log(connected); for (const s of sockets) s.destroy(); process.exit(0); };
for (let i = 0; i < count; i++) {
  sockets.push(net.connect(port, "127.0.0.1", () => { connected++; last = Date.now(); if (connected === count) done(); }).on("error", () => {}));
}
setInterval(() => setImmediate(() => Date.now() - last > 1_500 && done()), 100);
`;

function connectWhileBusy(port: number, count: number): number {
  const run = spawnSync(process.execPath, ["-e", CONNECT_ALL, String(port), String(count)], { encoding: "utf8", timeout: 30_000 });
  return Number(run.stdout.trim());
}

const somaxconn = (() => {
  try {
    return Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
  } catch {
    return 0; // not Linux
  }
})();
const CONNECTIONS = 1_000;

describe("npm start's server options", () => {
  it.skipIf(somaxconn < CONNECTIONS + 1)(
    "the listen queue holds 1,000 connections that arrive while the process is busy (Node's default held 512)",
    async () => {
      expect(LISTEN_BACKLOG).toBeGreaterThanOrEqual(CONNECTIONS);
      expect(connectWhileBusy(await listen(LISTEN_BACKLOG), CONNECTIONS)).toBe(CONNECTIONS);
      // What the test measures: with Node's default backlog (511) the kernel completes 512.
      expect(connectWhileBusy(await listen(), CONNECTIONS)).toBe(512);
    },
    30_000,
  );

  it("tells clients the keep-alive timeout, 65 s, longer than theirs and than a proxy's 60 s idle", async () => {
    const port = await listen();
    const agent = new http.Agent({ keepAlive: true });
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      http
        .get({ port, host: "127.0.0.1", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers));
        })
        .on("error", reject);
    });
    agent.destroy();
    expect(KEEP_ALIVE_TIMEOUT_MS).toBe(65_000);
    expect(headers["keep-alive"]).toBe("timeout=65");
    // Node asks for a headers timeout above the keep-alive timeout; requests may take longer.
    expect(SERVER_OPTIONS.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    expect(SERVER_OPTIONS.requestTimeout).toBeGreaterThanOrEqual(SERVER_OPTIONS.headersTimeout!);
  });
});
