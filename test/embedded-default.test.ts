// Smoke test of the embedded default: `npm run dev` with no database or Redis configured starts
// PGlite, the app and the demo, and the printed rental code works with the printed curl paths.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), "ars-embedded-"));

afterAll(async () => {
  if (child?.pid) {
    process.kill(-child.pid, "SIGTERM");
    await new Promise((resolve) => child!.once("exit", resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run dev (embedded default)", () => {
  it("serves the demo rental over /api/v1 and /v1 with no services configured", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), EMBEDDED_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) };
    for (const name of ["DATABASE_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "NODE_ENV", "VITEST", "WEBHOOK_TIMEOUT_MS"]) delete env[name];
    child = spawn("npm", ["run", "dev", "--silent"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr!.on("data", (c) => (output += c));
    const code = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /DEMO_RENTAL_CODE=([0-9a-f]{8})/.exec(output);
        if (match) resolve(match[1]);
      });
      child!.once("exit", (c) => reject(new Error(`npm run dev exited (${c}):\n${output}`)));
    });
    const ownerKey = /(rck_[0-9A-Za-z]+)/.exec(output)![1];
    expect(output).toContain(`curl -s http://localhost:${port}/api/v1/status -H "X-API-Key: ${code}"`);

    const base = `http://127.0.0.1:${port}`;
    const status = await fetch(`${base}/api/v1/status`, { headers: { "X-API-Key": code } });
    expect(status.status).toBe(200);
    const body = await status.json();
    expect(body.rental.status).toBe("active");
    expect(body.agent.name).toBe("Echo Agent");

    const chat = await fetch(`${base}/api/v1/chat`, {
      method: "POST",
      headers: { "X-API-Key": code, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Hello, agent!" }),
    });
    expect(chat.status).toBe(200);
    expect((await chat.json()).response).toBe("Echo: Hello, agent!");

    // The same surface without the /api prefix, for an API host of its own.
    const bare = await fetch(`${base}/v1/status`, { headers: { Authorization: `Bearer ${code}` } });
    expect(bare.status).toBe(200);
    expect(bare.headers.get("access-control-allow-origin")).toBe("*");

    // The printed owner key works on the owner surface, also without the /api prefix.
    const agents = await fetch(`${base}/public/agents`, { headers: { Authorization: `Bearer ${ownerKey}` } });
    expect(agents.status).toBe(200);
    const { agents: list } = await agents.json();
    expect(list.map((a: { name: string }) => a.name)).toContain("Echo Agent");

    // The server keys limits on the socket address: a forged X-Forwarded-For buys nothing.
    let limitedAt = 0;
    for (let i = 1; i <= 70 && !limitedAt; i++) {
      const res = await fetch(`${base}/api/v1/status`, { headers: { "X-API-Key": code, "X-Forwarded-For": `203.0.113.${i}` } });
      if (res.status === 429) limitedAt = i;
    }
    expect(limitedAt).toBeGreaterThan(0);
    expect(limitedAt).toBeLessThanOrEqual(61);
  }, 300_000);
});
