import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { uniqueIp } from "@/test/fixtures";

// Route handlers served over real HTTP, for tests that run a command a reader would run (curl,
// python3, node) against them. Every request comes from one client address of its own.
// `never`: any route's handler fits, whatever the params of its segment; the server hands each
// the params its path named.
type Handler = (req: Request, segment: never) => Promise<Response>;
export type ServedRoute = { method: string; path: RegExp; handler: Handler };

async function toRequest(req: IncomingMessage, ip: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers(req.headers as Record<string, string>);
  headers.set("x-forwarded-for", ip);
  return new Request(`http://localhost${req.url}`, {
    method: req.method,
    headers,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
}

/** Serves the routes on 127.0.0.1; a route's path is matched whole, its named groups are the params. */
export async function serveRoutes(routes: ServedRoute[]) {
  const ip = uniqueIp();
  const server = createServer(async (req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    const route = routes.find((r) => r.method === req.method && r.path.test(pathname));
    const params = { ...route?.path.exec(pathname)?.groups };
    const answer = route
      ? await route.handler(await toRequest(req, ip), { params: Promise.resolve(params) } as never)
      : Response.json({}, { status: 404 });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    // Streamed as it comes (server-sent events arrive one by one, as from the real server).
    if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
