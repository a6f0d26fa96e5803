// The embedded PGlite server: first start, migrations through the socket, the generated Prisma
// client over adapter-pg with a single connection, and data surviving a stop/start.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "./apply-migrations";
import { startEmbeddedPostgres } from "./embedded-postgres";
import { freePort } from "./free-port";

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

function prismaFor(url: string): PrismaClient {
  // The socket serves one connection at a time.
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }) });
}

const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "ars-pglite-")), "data");
const stops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const stop of stops) await stop();
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe("startEmbeddedPostgres", () => {
  it("creates the data folder, applies migrations (extensions included), and keeps rows across a restart", {
    timeout: 90_000,
  }, async () => {
    const first = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    stops.push(first.stop);
    expect(first.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);

    const { applied } = await applyMigrations(first.url);
    expect(applied.length).toBeGreaterThan(0);

    const email = `embedded-${Date.now()}@example.test`;
    let db = prismaFor(first.url);
    const account = await db.account.create({ data: { email, walletAddress: `0x${"ab".repeat(20)}` } });
    expect((await db.account.findUnique({ where: { id: account.id } }))?.email).toBe(email);
    await db.$disconnect();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    stops.push(second.stop);
    expect((await applyMigrations(second.url)).applied).toEqual([]);
    db = prismaFor(second.url);
    const reread = await db.account.findUnique({ where: { id: account.id } });
    expect(reread).toMatchObject({ email, walletAddress: `0x${"ab".repeat(20)}` });
    // The marketplace search's extensions (pg_trgm, fuzzystrmatch) work after a restart too.
    const [typo] = await db.$queryRaw<{ similarity: number; edits: number }[]>`
      SELECT word_similarity('echoo', 'Echo Agent') AS similarity, levenshtein_less_equal('scirbbler', 'scribbler', 2) AS edits`;
    expect(typo.similarity).toBeCloseTo(0.667, 3);
    expect(typo.edits).toBe(2);
    await db.$disconnect();
    await second.stop();
  });

  it("fails with a clear message when the port is taken", async () => {
    const blocker = await listen(0);
    const { port } = blocker.address() as { port: number };
    try {
      await expect(startEmbeddedPostgres({ dataDir: path.join(path.dirname(dataDir), "unused"), port })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is already in use`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
