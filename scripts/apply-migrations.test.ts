// Runs against the real PostgreSQL (TEST_DATABASE_ADMIN_URL, default the local trust server) in
// throwaway databases, so it does not depend on the suite's shared test database.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations } from "./apply-migrations";

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const migrationsDir = path.join(import.meta.dirname, "../prisma/migrations");

const localMigrations = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(path.join(migrationsDir, e.name, "migration.sql")))
  .map((e) => e.name)
  .sort();

const created: string[] = [];

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

async function createDatabase(): Promise<string> {
  const name = `mig_test_${randomBytes(6).toString("hex")}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await withAdmin(async (admin) => {
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe("applyMigrations", () => {
  it("has migrations to apply", () => {
    expect(localMigrations.length).toBeGreaterThan(0);
  });

  it("applies every migration, records it like Prisma, then applies nothing", async () => {
    const url = await createDatabase();
    const lines: string[] = [];
    const first = await applyMigrations(url, (line) => lines.push(line));
    expect(first.applied).toEqual(localMigrations);
    expect(lines).toEqual(localMigrations.map((name) => `Applied migration ${name}`));

    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    // Every model of the schema has its table, and nothing else exists but the Chat SDK's state
    // tables (@chat-adapter/state-pg's own, migrated by us with no model: lib/channels/chat-bot.ts).
    const schema = readFileSync(path.resolve("prisma/schema.prisma"), "utf8");
    const mapped = [...schema.matchAll(/@@map\("([a-z0-9_]+)"\)/g)].map((m) => m[1]);
    expect(mapped.length).toBeGreaterThan(5);
    const chatState = ["chat_state_cache", "chat_state_lists", "chat_state_locks", "chat_state_queues", "chat_state_subscriptions"];
    expect(tables.map((t) => t.table_name).sort()).toEqual(["_prisma_migrations", ...mapped, ...chatState].sort());

    const rows = await query<{
      id: string;
      checksum: string;
      migration_name: string;
      finished_at: Date | null;
      started_at: Date;
      logs: string | null;
      rolled_back_at: Date | null;
      applied_steps_count: number;
    }>(url, `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(localMigrations);
    for (const row of rows) {
      const file = readFileSync(path.join(migrationsDir, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }

    const second = await applyMigrations(url);
    expect(second.applied).toEqual([]);
    const count = await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    expect(count[0].n).toBe(localMigrations.length);
  });

  it("refuses to run when an applied migration's checksum changed", async () => {
    const url = await createDatabase();
    await applyMigrations(url);
    const tampered = localMigrations[0];
    await query(url, `UPDATE "_prisma_migrations" SET checksum = repeat('0', 64) WHERE migration_name = '${tampered}'`);
    await expect(applyMigrations(url)).rejects.toThrow(`Migration ${tampered} was modified after it was applied (checksum mismatch)`);
  });

  it("refuses to run over a migration recorded as started but not finished", async () => {
    const url = await createDatabase();
    await applyMigrations(url);
    await query(url, `UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = '${localMigrations[0]}'`);
    await expect(applyMigrations(url)).rejects.toThrow(/recorded as started but not finished/);
  });

  // The lock is taken per migration (a transaction-level lock: nothing held by the session), so
  // the two may take turns; each migration is still applied once, in order.
  it("applies each migration exactly once, in order, when two runs race", async () => {
    const url = await createDatabase();
    const [a, b] = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(localMigrations);
    const rows = await query<{ migration_name: string }>(url, `SELECT migration_name FROM "_prisma_migrations" ORDER BY finished_at`);
    expect(rows.map((r) => r.migration_name)).toEqual(localMigrations);
  });

  // PGBOUNCER_URL: the PgBouncer `npm test` starts (transaction mode) in front of the same server.
  it.skipIf(!process.env.PGBOUNCER_URL)("applies through a transaction pooler, two runs racing, and leaves no lock behind", async () => {
    const direct = await createDatabase();
    const pooled = new URL(process.env.PGBOUNCER_URL!);
    pooled.pathname = new URL(direct).pathname;
    const [a, b] = await Promise.all([applyMigrations(pooled.toString()), applyMigrations(pooled.toString())]);
    expect([...a.applied, ...b.applied].sort()).toEqual(localMigrations);
    expect((await applyMigrations(pooled.toString())).applied).toEqual([]);
    // A session-level lock would stay held on one of the pooler's server connections.
    const locks = await query<{ n: number }>(
      direct,
      `SELECT count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks[0].n).toBe(0);
  });

  it("reports an unreachable database as an error", async () => {
    const url = new URL(ADMIN_URL);
    url.pathname = `/mig_test_missing_${randomBytes(4).toString("hex")}`;
    await expect(applyMigrations(url.toString())).rejects.toThrow(/does not exist/);
  });
});
