import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SafeFetchInit, type SafeFetchPolicy, safeFetch } from "./safe-fetch";

type Received = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string; clientPort?: number };

const received: Received[] = [];
// Connections the server accepted during the current test, in order.
const connections: Socket[] = [];
let server: http.Server;
let port: number;

// A real webhook on 127.0.0.1; each path plays one kind of owner server.
function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  switch (req.url?.split("?")[0]) {
    case "/json":
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply: "hi" }));
      return;
    case "/text":
      res.writeHead(200, { "content-type": "text/plain" }).end("plain reply");
      return;
    case "/fail":
      res.writeHead(500).end("boom");
      return;
    case "/redirect":
      res.writeHead(302, { location: "/target" }).end();
      return;
    case "/slow": {
      const timer = setTimeout(() => res.end("late"), 1_000);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    case "/stalled-body":
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first part, then nothing");
      return;
    case "/big-with-length":
      res.writeHead(200, { "content-length": "2000" }).end("x".repeat(2_000));
      return;
    case "/big-chunked":
      res.writeHead(200);
      for (let i = 0; i < 4; i++) res.write("x".repeat(500));
      res.end();
      return;
    case "/reset-reused": {
      // Resets a connection on its second request: a kept-alive connection closing as it is reused.
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served === 2) return void socket.resetAndDestroy();
      res.writeHead(200).end("after a reset");
      return;
    }
    default:
      res.writeHead(200).end(body);
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body, clientPort: req.socket.remotePort });
      handle(req, res, body);
    });
  });
  server.on("connection", (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  connections.length = 0;
});

const init: SafeFetchInit = {
  headers: { authorization: "Bearer secret-token", "content-type": "application/json", "x-rental-ref": "rr_1" },
  body: JSON.stringify({ type: "message", message: "hello" }),
  timeoutMs: 2_000,
  maxBytes: 1_000,
};
const guarded: SafeFetchPolicy = { allowPrivate: false, requireHttps: false };
// Kept-alive connections wait a minute here, so a test's calls reuse them however slow the machine.
const local: SafeFetchPolicy = { allowPrivate: true, requireHttps: false, idleConnectionMs: 60_000 };
const url = (path: string) => `http://127.0.0.1:${port}${path}`;

function expectNoLeak(detail: string) {
  expect(detail).not.toContain("secret");
}

describe("safeFetch with private addresses disallowed", () => {
  it.each([
    ["IPv4 loopback", () => url("/echo")],
    ["IPv6 loopback literal", () => `http://[::1]:${port}/echo`],
    ["IPv4-mapped loopback literal", () => `http://[::ffff:127.0.0.1]:${port}/echo`],
    ["a name resolving to loopback", () => `http://localhost:${port}/echo`],
  ])("refuses %s without sending anything", async (_, target) => {
    const result = await safeFetch(`${target()}?key=secret-query`, init, guarded);
    expect(result).toMatchObject({ kind: "error", reason: "blocked" });
    if (result.kind === "error") expectNoLeak(result.detail);
    expect(received).toHaveLength(0);
  });

  it("refuses the metadata endpoint", async () => {
    const result = await safeFetch("http://169.254.169.254/latest/meta-data/", init, guarded);
    expect(result).toMatchObject({ kind: "error", reason: "blocked" });
  });

  it("answers a name that does not resolve exactly as one that resolves to a private address", async () => {
    const unresolvable = await safeFetch("https://no-such-host.invalid/hooks/agent", init, guarded);
    const internal = await safeFetch(`http://localhost:${port}/echo`, init, guarded);
    const answer = { kind: "error", reason: "blocked", detail: "host does not resolve to a public address" };
    expect(unresolvable).toMatchObject(answer);
    expect(internal).toMatchObject(answer);
    expect(received).toHaveLength(0);
  });

  it("refuses the IPv6 tunnel and translator ranges (6to4, Teredo, local NAT64, IPv4-translated, site-local)", async () => {
    for (const literal of ["2002:7f00:1::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "64:ff9b:1::7f00:1", "::ffff:0:7f00:1", "fec0::1"]) {
      const result = await safeFetch(`https://[${literal}]/hooks/agent`, init, guarded);
      expect(result, literal).toMatchObject({
        kind: "error",
        reason: "blocked",
        detail: "host does not resolve to a public address",
      });
    }
  });
});

describe("safeFetch of a name that does not resolve, private addresses allowed (development)", () => {
  it("says what failed: nothing is hidden when nothing is blocked", async () => {
    const result = await safeFetch("http://no-such-host.invalid/hooks/agent", init, local);
    expect(result).toMatchObject({ kind: "error", reason: "unreachable" });
    if (result.kind === "error") expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(result.detail);
  });
});

describe("safeFetch with private addresses allowed", () => {
  it("sends a POST with the given headers and body", async () => {
    const result = await safeFetch(url("/echo"), init, local);
    expect(result).toMatchObject({ kind: "response", status: 200 });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe("POST");
    expect(request.headers).toMatchObject({
      authorization: "Bearer secret-token",
      "content-type": "application/json",
      "x-rental-ref": "rr_1",
    });
    expect(request.body).toBe(init.body);
    if (result.kind === "response") expect(result.body.toString()).toBe(init.body);
  });

  it("returns a JSON reply with its headers and latency", async () => {
    const result = await safeFetch(url("/json"), init, local);
    if (result.kind !== "response") throw new Error(`expected a response, got ${result.reason}`);
    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(result.body.toString())).toEqual({ reply: "hi" });
    expect(Number.isInteger(result.latencyMs)).toBe(true);
  });

  it("fails at once on a header Node cannot send, leaving no timer behind", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const before = timers();
    const badHeader = { ...init, headers: { ...init.headers, "x-agent-name": "Bot\nName" }, timeoutMs: 60_000 };
    await expect(safeFetch(url("/echo"), badHeader, local)).rejects.toThrow(/Invalid character/);
    expect(timers()).toBe(before);
    expect(received).toHaveLength(0);
  });

  it("returns a plain-text reply", async () => {
    const result = await safeFetch(url("/text"), init, local);
    expect(result).toMatchObject({ kind: "response", status: 200 });
    if (result.kind === "response") expect(result.body.toString()).toBe("plain reply");
  });

  it("returns a 500 as a response, not an error", async () => {
    const result = await safeFetch(url("/fail"), init, local);
    expect(result).toMatchObject({ kind: "response", status: 500 });
  });

  it("returns a redirect as is and never follows it", async () => {
    const result = await safeFetch(url("/redirect"), init, local);
    expect(result).toMatchObject({ kind: "response", status: 302 });
    if (result.kind === "response") expect(result.headers.location).toBe("/target");
    expect(received.map((r) => r.url)).toEqual(["/redirect"]);
  });

  it("times out when the reply is slower than timeoutMs", async () => {
    const result = await safeFetch(url("/slow"), { ...init, timeoutMs: 300 }, local);
    // No upper bound on the time taken (a loaded machine is slow): that the timeout, not the
    // reply due at 1 s on a timer of this same process, ended the request is the proof.
    expect(result).toMatchObject({ kind: "error", reason: "timeout" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
  });

  it("with replyTimeoutMs, the reply's clock starts when the request went out: this process being busy before is not counted", async () => {
    // Busy (synchronously) for longer than the reply's time, just after the call: nothing is sent
    // meanwhile. Each call gets a pool of its own, so each opens its connection after the wait.
    const busyFor = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) Math.sqrt(ms);
    };
    const replyClock = safeFetch(
      url("/json"),
      { ...init, timeoutMs: 20_000, replyTimeoutMs: 1_000 },
      { ...local, idleConnectionMs: 58_000 },
    );
    busyFor(1_500);
    expect(await replyClock).toMatchObject({ kind: "response", status: 200 });
    // One clock for the whole exchange (no replyTimeoutMs) counts the busy time and gives up.
    const oneClock = safeFetch(url("/json"), { ...init, timeoutMs: 1_000 }, { ...local, idleConnectionMs: 57_000 });
    busyFor(1_500);
    expect(await oneClock).toMatchObject({ kind: "error", reason: "timeout" });
  });

  it("with replyTimeoutMs, times out when the reply is slower than it, and timeoutMs still bounds the whole exchange", async () => {
    const slowReply = await safeFetch(url("/slow"), { ...init, timeoutMs: 20_000, replyTimeoutMs: 300 }, local);
    expect(slowReply).toMatchObject({ kind: "error", reason: "timeout", detail: "no complete reply within 300 ms of the request" });
    const whole = await safeFetch(url("/slow"), { ...init, timeoutMs: 300, replyTimeoutMs: 20_000 }, local);
    expect(whole).toMatchObject({ kind: "error", reason: "timeout", detail: "no complete reply within 300 ms" });
  });

  it("times out when the body never finishes", async () => {
    const result = await safeFetch(url("/stalled-body"), { ...init, timeoutMs: 300 }, local);
    expect(result).toMatchObject({ kind: "error", reason: "timeout" });
  });

  it.each(["/big-with-length", "/big-chunked"])("refuses a reply over maxBytes (%s)", async (path) => {
    const result = await safeFetch(url(path), init, local);
    expect(result).toMatchObject({ kind: "error", reason: "too_large" });
  });

  it("reports a closed port as unreachable without leaking the query or token", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const result = await safeFetch(`http://127.0.0.1:${closedPort}/hook?key=secret-query`, init, local);
    expect(result).toMatchObject({ kind: "error", reason: "unreachable", detail: "ECONNREFUSED" });
  });

  it("keeps the connection open from one call to the next", async () => {
    expect(await safeFetch(url("/json"), init, local)).toMatchObject({ kind: "response", status: 200 });
    expect(await safeFetch(url("/text"), init, local)).toMatchObject({ kind: "response", status: 200 });
    expect(await safeFetch(url("/json"), init, local)).toMatchObject({ kind: "response", status: 200 });
    expect(new Set(received.map((r) => r.clientPort)).size).toBe(1);
  });

  it("lets a reply take longer than a connection's idle time", async () => {
    const briefIdle = { ...local, idleConnectionMs: 100 };
    expect(await safeFetch(url("/slow"), { ...init, timeoutMs: 5_000 }, briefIdle)).toMatchObject({ kind: "response", status: 200 });
  });

  it("sends again, once, on a new connection when a reused one is reset before any reply", async () => {
    const signed = { ...init, headers: { ...init.headers, "webhook-id": "msg_1" } };
    expect(await safeFetch(url("/reset-reused"), signed, local)).toMatchObject({ kind: "response", status: 200 });
    expect(await safeFetch(url("/reset-reused"), signed, local)).toMatchObject({ kind: "response", status: 200 });
    expect(received.map((r) => r.headers["webhook-id"])).toEqual(["msg_1", "msg_1", "msg_1"]);
    expect(new Set(received.map((r) => r.clientPort)).size).toBe(2);
  });

  it("does not send again when it gives up waiting on a reused connection", async () => {
    const ownPool = { ...local, idleConnectionMs: 59_000 }; // a pool of this test's own
    expect(await safeFetch(url("/json"), init, ownPool)).toMatchObject({ kind: "response" });
    expect(await safeFetch(url("/slow"), { ...init, timeoutMs: 200 }, ownPool)).toMatchObject({ kind: "error", reason: "timeout" });
    // Once the server sees the given-up connection close, a call sent again would already be
    // connecting; a new call's answer comes after the server has accepted it.
    const [given] = connections;
    if (!given.destroyed) await new Promise((resolve) => given.once("close", resolve));
    expect(await safeFetch(url("/json"), init, ownPool)).toMatchObject({ kind: "response" });
    expect(connections).toHaveLength(2);
    expect(received.filter((r) => r.url === "/slow").length).toBeLessThanOrEqual(1);
  });

  it("does not send again when a new connection is reset", async () => {
    let requests = 0;
    const resetting = http.createServer((req) => {
      requests++;
      req.socket.resetAndDestroy();
    });
    await new Promise<void>((resolve) => resetting.listen(0, "127.0.0.1", resolve));
    const result = await safeFetch(`http://127.0.0.1:${(resetting.address() as AddressInfo).port}/`, init, local);
    await new Promise((resolve) => resetting.close(resolve));
    expect(result).toMatchObject({ kind: "error", reason: "unreachable", detail: "ECONNRESET" });
    expect(requests).toBe(1);
  });

  it("never lends a connection opened under a looser policy to a stricter one", async () => {
    expect(await safeFetch(`http://localhost:${port}/json`, init, local)).toMatchObject({ kind: "response" });
    expect(await safeFetch(`http://localhost:${port}/json`, init, guarded)).toMatchObject({ kind: "error", reason: "blocked" });
    expect(received).toHaveLength(1);
  });

  it("takes its policy from env by default (tests set ALLOW_PRIVATE_WEBHOOKS=1)", async () => {
    const result = await safeFetch(url("/json"), init);
    expect(result).toMatchObject({ kind: "response", status: 200 });
  });
});

describe("safeFetch URL rules", () => {
  it("refuses http when https is required and private targets are not allowed", async () => {
    const result = await safeFetch(url("/echo"), init, { allowPrivate: false, requireHttps: true });
    expect(result).toMatchObject({ kind: "error", reason: "invalid_url" });
    expect(received).toHaveLength(0);
  });

  it("allows http only to private targets when both flags are set (production with the flag)", async () => {
    const policy = { allowPrivate: true, requireHttps: true };
    expect(await safeFetch(url("/json"), init, policy)).toMatchObject({ kind: "response", status: 200 });
    expect(await safeFetch("http://8.8.8.8/hook", init, policy)).toMatchObject({
      kind: "error",
      reason: "invalid_url",
    });
  });

  it("refuses credentials in the URL without echoing them", async () => {
    const result = await safeFetch(`http://user:secret-pass@127.0.0.1:${port}/echo`, init, local);
    expect(result).toMatchObject({ kind: "error", reason: "invalid_url" });
    if (result.kind === "error") expectNoLeak(result.detail);
    expect(received).toHaveLength(0);
  });

  it.each(["ftp://example.com/hook", "not a url", "file:///etc/passwd"])("refuses %s", async (target) => {
    const result = await safeFetch(target, init, local);
    expect(result).toMatchObject({ kind: "error", reason: "invalid_url" });
  });
});
