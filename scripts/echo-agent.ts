// The demo agent of `npm run dev`: a tiny webhook that answers health checks and echoes each
// message back, checking the bearer token like a real owner's webhook should (docs/webhooks.md).
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type EchoAgent = { url: string; close(): Promise<void> };

export async function startEchoAgent(token: string, port = 0): Promise<EchoAgent> {
  const expected = Buffer.from(`Bearer ${token}`);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const given = Buffer.from(req.headers.authorization ?? "");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/hooks/agent") return send(404, { error: "not found" });
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return send(401, { error: "bad token" });
    let payload: { type?: string; message?: string };
    try {
      payload = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(400, { error: "invalid JSON" });
    }
    if (payload.type === "health_check") return send(200, { ok: true });
    send(200, `Echo: ${payload.message ?? ""}`);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/hooks/agent`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
