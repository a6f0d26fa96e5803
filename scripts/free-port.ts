import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago (`port` 0: any; otherwise that one, or a
 * rejection when it is taken). Another process may still take it before the caller binds it. */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}
