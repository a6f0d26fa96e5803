// The services `npm test` makes ready: used when something answers, started throwaway when
// nothing does, and only what was started is stopped. Run against free ports, so the machine's
// own PostgreSQL and Redis are never touched.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port";
import { answers, ensurePgBouncer, ensurePostgres, ensureRedis, onPath, pgbouncerBin, postgresBin, stopServices } from "./test-services";

const quiet = () => {};
// Starting a throwaway server needs its programs here (a machine may reach PostgreSQL or Redis
// elsewhere, e.g. in a container); installing them is not this test's business.
const hasPostgres = postgresBin() !== undefined;
const hasRedis = await onPath("redis-server");
const hasPgBouncer = pgbouncerBin() !== undefined;
const suitePostgres = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
if (!hasPostgres || !hasRedis)
  console.warn("[test-services] PostgreSQL's or Redis's programs are not installed: their start tests are skipped.");

function listen(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;

describe("test services", () => {
  it("tells a port that answers from one that does not", async () => {
    const server = await listen();
    const port = portOf(server);
    expect(await answers(port)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await answers(port)).toBe(false);
  });

  it("starts nothing where something already answers", async () => {
    const [postgres, redis] = [await listen(), await listen()];
    try {
      expect(await ensurePostgres(portOf(postgres), quiet)).toBeUndefined();
      expect(await ensureRedis(portOf(redis), quiet)).toBeUndefined();
    } finally {
      postgres.close();
      redis.close();
    }
  });

  it.skipIf(!hasRedis)("starts a throwaway Redis on a port where none answers, and stops it", async () => {
    const port = await freePort();
    const redis = (await ensureRedis(port, quiet))!;
    expect(redis.name).toBe(`Redis on 127.0.0.1:${port}`);
    expect(await answers(port)).toBe(true);
    await stopServices([redis]);
    expect(await answers(port)).toBe(false);
  });

  it.skipIf(!hasPostgres)("starts a throwaway PostgreSQL (trust auth, user postgres) where none answers, and stops it", async () => {
    const port = await freePort();
    const postgres = (await ensurePostgres(port, quiet))!;
    try {
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
      await client.connect();
      const { rows } = await client.query(
        "SELECT current_setting('listen_addresses') AS listen, current_setting('data_directory') AS data",
      );
      await client.end();
      expect(rows[0].listen).toBe("127.0.0.1");
      expect(existsSync(rows[0].data)).toBe(true);
      await stopServices([postgres]);
      expect(await answers(port)).toBe(false);
      expect(existsSync(rows[0].data)).toBe(false); // its folder went with it
    } finally {
      await stopServices([postgres], quiet);
    }
  });

  // npm test installs it before the suites; a bare `npx vitest run` on a machine without it skips this.
  it.skipIf(!hasPgBouncer)("starts a PgBouncer in transaction mode in front of PostgreSQL, and stops it", async () => {
    const pgbouncer = await ensurePgBouncer(Number(suitePostgres.port || 5432), quiet);
    try {
      expect(pgbouncer.url).toBe(`postgresql://postgres@127.0.0.1:${pgbouncer.port}/postgres`);
      const client = new pg.Client({ connectionString: pgbouncer.url });
      await client.connect();
      // The extended protocol (a parameter) and a transaction go through.
      await client.query("BEGIN");
      const { rows } = await client.query("SELECT $1::int + 1 AS n, current_database() AS db", [41]);
      await client.query("COMMIT");
      await client.end();
      expect(rows[0]).toEqual({ n: 42, db: "postgres" });
      const consoleUrl = new URL(pgbouncer.url);
      consoleUrl.pathname = "/pgbouncer";
      const admin = new pg.Client({ connectionString: consoleUrl.toString() });
      await admin.connect();
      const config = (await admin.query<{ key: string; value: string }>("SHOW CONFIG")).rows;
      await admin.end();
      const setting = (key: string) => config.find((row) => row.key === key)?.value;
      expect(setting("pool_mode")).toBe("transaction");
      expect(setting("listen_addr")).toBe("127.0.0.1");
      await stopServices([pgbouncer]);
      expect(await answers(pgbouncer.port)).toBe(false);
    } finally {
      await stopServices([pgbouncer], quiet);
    }
  });
});
