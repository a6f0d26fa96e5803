import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

// Test-only: a TCP relay in front of a real service (PostgreSQL, the Upstash bridge), so a test
// can take that service away from the code under test without stopping it for everyone else.
//   cut()     — the service goes down: every open connection is dropped and the port is closed,
//               so new connections are refused (ECONNREFUSED), as from a stopped server.
//   restore() — it is back: the same port accepts and relays again.
//   hold()    — bytes from clients stop being relayed (dropped: cut() follows) and `held`
//               resolves with the first of them: a request is then provably in flight, no sleep.
export type TcpProxy = {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  hold(): { held: Promise<void> };
  // Resolves once no connection is open through the relay (its clients closed them all).
  idle(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy & { close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const onIdle: Array<() => void> = [];
  let holding: { resolve(): void } | null = null;

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => {
        sockets.delete(socket);
        if (sockets.size === 0) for (const resolve of onIdle.splice(0)) resolve();
      });
      // The other side's end is destroyed with it; an error here is the outage under test.
      socket.on("error", () => {});
    }
    client.on("data", (chunk: Buffer) => {
      if (holding) {
        holding.resolve();
        return; // swallowed: this connection is about to be cut anyway
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;

  async function cut() {
    holding = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  }

  return {
    port,
    cut,
    async restore() {
      await listen(port);
    },
    hold() {
      let resolve!: () => void;
      const held = new Promise<void>((r) => (resolve = r));
      holding = { resolve };
      return { held };
    },
    idle() {
      return sockets.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => onIdle.push(resolve));
    },
    async close() {
      if (server.listening) await cut();
    },
  };
}
