// The shutdown of `npm start` on a real node:http server serving the real POST /v1/chat handler,
// with a real owner webhook that answers only when the test says so: the chat is provably in
// flight when the signal comes, with no sleeps. The deadline is a timer the test fires itself.
import { once } from "node:events";
import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type GracefulShutdownOptions, gracefulShutdown } from "@/scripts/graceful-shutdown";
import { startTcpProxy } from "@/test/tcp-proxy";

// The database through a relay, to see the pool's connections close; a webhook timeout far
// beyond the test's own, so only the test decides when the chat ends.
const realDatabase = new URL(process.env.DATABASE_URL!);
const database = await startTcpProxy({ host: realDatabase.hostname, port: Number(realDatabase.port || 5432) });
const proxied = new URL(realDatabase);
proxied.host = `127.0.0.1:${database.port}`;
process.env.DATABASE_URL = proxied.toString();
process.env.WEBHOOK_TIMEOUT_MS = "120000";

const { POST: CHAT } = await import("@/app/api/v1/chat/route");
const { disconnectDatabase } = await import("@/lib/disconnect-database");
const { makeAgent, makeRental, startWebhook, uniqueIp } = await import("@/test/fixtures");

// A webhook that holds each request until `answer()`; `received` resolves as one arrives.
const pending: ServerResponse[] = [];
let arrived: (() => void) | null = null;
const webhook = await startWebhook((_req, res) => {
  pending.push(res);
  arrived?.();
});
const nextWebhookCall = () => new Promise<void>((resolve) => (arrived = resolve));
const answerWebhook = (reply: string) => {
  for (const res of pending.splice(0)) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply }));
};

const cleanups: Array<() => void> = [];
afterEach(() => {
  answerWebhook("cleanup");
  for (const cleanup of cleanups.splice(0)) cleanup();
});
afterAll(async () => {
  await webhook.close();
  await database.close();
});

// What scripts/server.ts does, with Next's handler replaced by the route handler itself.
function startServer(events: string[]): Server {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.entries(req.headers).map(([name, value]) => [name, String(value)] as [string, string]);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response =
      req.url === "/api/v1/chat"
        ? await CHAT(new Request(`http://localhost${req.url}`, { method: req.method, headers, body }))
        : Response.json({ ok: true });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
    events.push(`answered ${req.url}`);
  });
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return server;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

type Reply = { status: number; headers: IncomingMessage["headers"]; body: string; socket: Socket };

function send(port: number, path: string, options: { agent?: Agent; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.body ? "POST" : "GET",
        agent: options.agent,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            socket: req.socket!,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

async function chatRequest(port: number) {
  const rental = await makeRental((await makeAgent({ webhook: { url: webhook.url, token: "t".repeat(32) } })).id);
  const headers = {
    "content-type": "application/json",
    "x-api-key": rental.id.slice(0, 8),
    "x-forwarded-for": uniqueIp(),
  };
  const called = nextWebhookCall();
  const reply = send(port, "/api/v1/chat", { headers, body: JSON.stringify({ message: "still there?" }) });
  await called;
  // Wrapped: an async function returning the promise itself would wait for the reply.
  return { reply };
}

const refused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });

function setup(server: Server, events: string[], overrides: Partial<GracefulShutdownOptions> = {}) {
  const exits: number[] = [];
  const lines: string[] = [];
  const shutdown = gracefulShutdown(server, {
    deadlineMs: 35_000,
    closeHooks: [
      {
        name: "the database pool",
        close: async () => {
          events.push("database closing");
          await disconnectDatabase();
        },
      },
    ],
    exit: (code) => {
      exits.push(code);
      events.push(`exit ${code}`);
    },
    log: (line) => lines.push(line),
    ...overrides,
  });
  return { shutdown, exits, lines };
}

describe("gracefulShutdown", () => {
  it("on SIGTERM: refuses new connections, closes idle keep-alive ones at once, lets the in-flight chat finish with 200, then closes the pool and exits 0", async () => {
    const events: string[] = [];
    const server = startServer(events);
    let deadline: { ms: number; cancelled: boolean } | undefined;
    const { shutdown, exits, lines } = setup(server, events, {
      startDeadline: (_fire, ms) => {
        deadline = { ms, cancelled: false };
        return () => (deadline!.cancelled = true);
      },
    });
    const port = await listen(server);

    // A keep-alive connection that served a request and now sits idle.
    const keepAlive = new Agent({ keepAlive: true });
    cleanups.push(() => keepAlive.destroy());
    const idle = await send(port, "/api/health", { agent: keepAlive });
    expect(idle.status).toBe(200);
    const idleClosed = once(idle.socket, "close");

    // The owner's webhook has the message and has not answered: the chat is in flight.
    const chat = (await chatRequest(port)).reply;
    const stopped = shutdown.begin("SIGTERM");
    expect(shutdown.inFlight()).toBe(1);
    await idleClosed;
    expect(await refused(port)).toBe("ECONNREFUSED");
    expect(events).toEqual(["answered /api/health"]);

    answerWebhook("yes");
    const reply = await chat;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ success: true, response: { reply: "yes" } });
    expect(reply.headers.connection).toBe("close");
    await stopped;

    expect(events).toEqual(["answered /api/health", "answered /api/v1/chat", "database closing", "exit 0"]);
    expect(exits).toEqual([0]);
    expect(deadline).toEqual({ ms: 35_000, cancelled: true });
    // The pool really closed: no connection to the database is left open.
    await database.idle();
    expect(lines[0]).toBe("SIGTERM: no new connections; waiting for 1 request(s) in flight (at most 35 s).");
    expect(lines.at(-1)).toBe("Shut down cleanly.");
  });

  it("the deadline passing first exits 1 with the chat still in flight, without waiting for it or closing the pool", async () => {
    const events: string[] = [];
    const server = startServer(events);
    let fire: (() => void) | undefined;
    const { shutdown, exits, lines } = setup(server, events, {
      deadlineMs: 31_500,
      startDeadline: (onDeadline, ms) => {
        expect(ms).toBe(31_500);
        fire = onDeadline;
        return () => {};
      },
    });
    const port = await listen(server);
    const chat = (await chatRequest(port)).reply;
    void shutdown.begin("SIGTERM");
    expect(await refused(port)).toBe("ECONNREFUSED");
    expect(exits).toEqual([]);

    fire!();
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe("Shutdown deadline of 32 s passed with 1 request(s) in flight: exiting.");
    // Had the process not exited, the chat would still finish; the pool is not closed after an exit.
    answerWebhook("late");
    expect((await chat).status).toBe(200);
    expect(events).toEqual(["exit 1", "answered /api/v1/chat"]);
  });

  it("a request with a longer allowance in flight (a cron run) extends the deadline to it", async () => {
    const events: string[] = [];
    const server = startServer(events);
    const deadlines: number[] = [];
    const { shutdown, exits } = setup(server, events, {
      // As scripts/server.ts gives cron runs 305 s; here the chat stands in for one.
      allowanceOf: (req) => (req.url === "/api/v1/chat" ? 305_000 : 0),
      startDeadline: (_fire, ms) => {
        deadlines.push(ms);
        return () => {};
      },
    });
    const port = await listen(server);
    const chat = (await chatRequest(port)).reply;
    const stopped = shutdown.begin("SIGTERM");
    expect(deadlines).toEqual([305_000]);
    answerWebhook("done");
    expect((await chat).status).toBe(200);
    await stopped;
    expect(exits).toEqual([0]);
  });

  it("a second signal exits 1 at once", async () => {
    const events: string[] = [];
    const server = startServer(events);
    const { shutdown, exits, lines } = setup(server, events, { startDeadline: () => () => {} });
    const port = await listen(server);
    const chat = (await chatRequest(port)).reply;
    void shutdown.begin("SIGTERM");
    await shutdown.begin("SIGINT");
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe("SIGINT again: exiting now, 1 request(s) still in flight.");
    answerWebhook("late");
    await chat;
    expect(events).toEqual(["exit 1", "answered /api/v1/chat"]);
  });

  it("with nothing in flight it closes the pool and exits 0 straight away, even with a connection that never sent a request", async () => {
    const events: string[] = [];
    const server = startServer(events);
    const { shutdown, exits } = setup(server, events);
    const port = await listen(server);
    const silent = connect(port, "127.0.0.1");
    cleanups.push(() => silent.destroy());
    await Promise.all([once(silent, "connect"), once(server, "connection")]);
    const silentClosed = once(silent, "close");
    await shutdown.begin("SIGTERM");
    await silentClosed;
    expect(exits).toEqual([0]);
    expect(events).toEqual(["database closing", "exit 0"]);
  });

  it("a close hook that fails is logged and the next still runs", async () => {
    const server = startServer([]);
    const closed: string[] = [];
    const { shutdown, exits, lines } = setup(server, [], {
      closeHooks: [
        {
          name: "the broken thing",
          close: async () => {
            throw new Error("already gone");
          },
        },
        {
          name: "the database pool",
          close: async () => {
            closed.push("database");
          },
        },
      ],
    });
    await listen(server);
    await shutdown.begin("SIGTERM");
    expect(lines).toContain("Closing the broken thing failed: already gone");
    expect(closed).toEqual(["database"]);
    expect(exits).toEqual([0]);
  });
});
