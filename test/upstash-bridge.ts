import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Redis from "ioredis";

// Test-only: Upstash's REST protocol in front of a real Redis, since no npm package serves it
// (notes/toolchain.md, "Upstash in tests"). One token, no limits: never run it outside tests.
export type Command = [string, ...(string | number)[]];
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

// With "Upstash-Encoding: base64" every string is base64 except the status "OK", at any depth.
const encode = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(encode) : typeof value === "string" && value !== "OK" ? Buffer.from(value).toString("base64") : value;

// `alter` sees every command before Redis does (after the shebang rewrite) and may change it: the
// three-server test pins the time @upstash/ratelimit's script is given for one bucket, as
// chaos-burst.test.ts freezes Date.now in its single process.
export async function startUpstashBridge(
  opts: { redisUrl?: string; port?: number; alter?: (command: Command) => Command } = {},
): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const redis = new Redis(opts.redisUrl ?? "redis://127.0.0.1:6379");
  const token = randomBytes(16).toString("hex");
  const shas = new Map<string, string>(); // the client's SHA1 → SHA1 of the script Redis cached

  // "flags=allow-key-locking" is Upstash-only and Redis 7.0 refuses it; a bare "#!lua" is equivalent.
  function rewrite([name, ...args]: Command): Command {
    const verb = name.toLowerCase(),
      [first, ...rest] = args;
    if (verb === "eval" && typeof first === "string" && first.startsWith("#!lua flags=")) {
      const script = first.replace(/^#!lua flags=[^\n]*/, "#!lua");
      shas.set(sha1(first), sha1(script));
      return [name, script, ...rest];
    }
    return verb === "evalsha" ? [name, shas.get(String(first)) ?? first, ...rest] : [name, ...args];
  }
  // Error text passes through as is: the client retries with EVAL when it contains "NOSCRIPT".
  const reply = ([error, result]: [Error | null, unknown], base64: boolean) =>
    error ? { error: error.message } : { result: base64 ? encode(result) : result };

  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    const base64 = req.headers["upstash-encoding"] === "base64";
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Command | Command[];
      // One command is a pipeline of one; /multi-exec runs in MULTI/EXEC like Upstash's transactions.
      const single = req.url !== "/pipeline" && req.url !== "/multi-exec";
      const batch = req.url === "/multi-exec" ? redis.multi() : redis.pipeline();
      const alter = opts.alter ?? ((command: Command) => command);
      for (const command of single ? [body as Command] : (body as Command[])) batch.call(...alter(rewrite(command)));
      const replies = ((await batch.exec()) ?? []).map((r) => reply(r, base64));
      return single ? send("error" in replies[0] ? 400 : 200, replies[0]) : send(200, replies);
    } catch (error) {
      return send(400, { error: (error as Error).message }); // bad JSON, or EXECABORT
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    async close() {
      server.closeAllConnections(); // the client keeps connections alive
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}
