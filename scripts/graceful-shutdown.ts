import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

// How `npm start` stops (scripts/server.ts): on the first SIGTERM or SIGINT it stops accepting
// connections and closes idle keep-alive ones at once, lets the requests in flight finish (a chat
// waiting on an owner's webhook, a cron run), then runs the close hooks (the database pool) and
// exits 0. A second signal, or the deadline passing first, exits 1 at once.
export type GracefulShutdownOptions = {
  // Longest the requests in flight may take after the signal.
  deadlineMs: number;
  // A longer allowance for some requests (cron runs); the deadline is the longest among those in
  // flight when the signal comes, and never shorter than deadlineMs.
  allowanceOf?: (req: IncomingMessage) => number;
  // Run in order once no request is in flight; one that fails is logged and the rest still run.
  closeHooks: Array<{ name: string; close: () => Promise<void> }>;
  exit: (code: number) => void;
  log?: (line: string) => void;
  // Starts the deadline; returns its cancel. Injected by tests (the default is an unref'd timer).
  startDeadline?: (onDeadline: () => void, ms: number) => () => void;
};

export type GracefulShutdown = {
  // Starts the shutdown (the first call) or forces the exit (any later call).
  begin(signal: string): Promise<void>;
  inFlight(): number;
};

const defaultDeadline = (onDeadline: () => void, ms: number) => {
  const timer = setTimeout(onDeadline, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

// Call before the server starts listening, so every request is counted.
export function gracefulShutdown(server: Server, options: GracefulShutdownOptions): GracefulShutdown {
  const { closeHooks, exit, log = console.log, startDeadline = defaultDeadline, allowanceOf = () => 0 } = options;
  // Each response in flight, with the allowance of its request.
  const responses = new Map<ServerResponse, number>();
  let stopping = false;
  let exited = false;
  const exitOnce = (code: number) => {
    if (exited) return;
    exited = true;
    exit(code);
  };
  // A response written while stopping tells its client not to reuse the connection.
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  };

  // Connections that have not sent a request yet (a browser's preconnect): Node does not count
  // them as idle, so close() alone would wait for them until the deadline.
  const silent = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    silent.add(socket);
    socket.once("close", () => silent.delete(socket));
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    silent.delete(req.socket);
    responses.set(res, allowanceOf(req));
    if (stopping) closeAfter(res);
    res.once("close", () => {
      responses.delete(res);
      // Its connection is idle now: close it rather than wait for the keep-alive timeout.
      if (stopping) server.closeIdleConnections();
    });
  });

  return {
    inFlight: () => responses.size,
    async begin(signal) {
      if (stopping) {
        log(`${signal} again: exiting now, ${responses.size} request(s) still in flight.`);
        exitOnce(1);
        return;
      }
      stopping = true;
      const deadlineMs = Math.max(options.deadlineMs, ...responses.values());
      log(`${signal}: no new connections; waiting for ${responses.size} request(s) in flight (at most ${Math.ceil(deadlineMs / 1000)} s).`);
      const cancelDeadline = startDeadline(() => {
        log(`Shutdown deadline of ${Math.ceil(deadlineMs / 1000)} s passed with ${responses.size} request(s) in flight: exiting.`);
        exitOnce(1);
      }, deadlineMs);

      // close() stops accepting and calls back once every connection has ended; connections
      // busy with a request end after their response (closeAfter, and the close listener above).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const res of responses.keys()) closeAfter(res);
      server.closeIdleConnections();
      for (const socket of silent) socket.destroy();
      await closed;
      if (exited) return;

      for (const hook of closeHooks) {
        try {
          await hook.close();
        } catch (error) {
          log(`Closing ${hook.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      cancelDeadline();
      log("Shut down cleanly.");
      exitOnce(0);
    },
  };
}
