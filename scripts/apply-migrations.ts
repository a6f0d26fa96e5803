// Applies prisma/migrations/*/migration.sql in name order, each in its own transaction, and
// records them in Prisma's own `_prisma_migrations` table with Prisma's columns and meaning, so
// `prisma migrate deploy` can take over wherever its schema engine can be downloaded.
//
// One pg connection only: the embedded PGlite server (scripts/embedded-postgres.ts) serves one
// connection at a time. No session state: the lock that keeps two runners apart is taken inside
// each transaction (pg_advisory_xact_lock), so the runner is also correct through a transaction
// pooler (PgBouncer), where a session-level lock would stay behind on whichever server connection
// took it. Still, give it DATABASE_DIRECT_URL where there is one (scripts/migrate.ts): a
// provider's pooler may cut long DDL statements short.
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";

const migrationsDir = fileURLToPath(new URL("../prisma/migrations", import.meta.url));

// The key Prisma's schema engine locks on PostgreSQL (a session-level lock for its whole run), so
// this runner's transaction-level lock on it and `prisma migrate deploy` also exclude each other.
const ADVISORY_LOCK_KEY = 72707369;

// Prisma's own definition of the table (schema engine, PostgreSQL flavour).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

async function readLocalMigrations(): Promise<LocalMigration[]> {
  if (!existsSync(migrationsDir)) return [];
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const migrations: LocalMigration[] = [];
  for (const name of entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    const file = `${migrationsDir}/${name}/migration.sql`;
    if (!existsSync(file)) continue;
    const bytes = await readFile(file);
    migrations.push({
      name,
      sql: bytes.toString("utf8"),
      checksum: createHash("sha256").update(bytes).digest("hex"),
    });
  }
  return migrations;
}

// Rows Prisma still counts: a rolled-back attempt is history only and may be applied again.
async function readAppliedRows(client: pg.Client): Promise<Map<string, AppliedRow>> {
  const { rows } = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
     WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return new Map(rows.map((row) => [row.migration_name, row]));
}

function checkHistory(local: LocalMigration[], applied: Map<string, AppliedRow>): void {
  for (const row of applied.values()) {
    if (row.finished_at === null) {
      throw new Error(
        `Migration ${row.migration_name} is recorded as started but not finished (a failed ` +
          "`prisma migrate deploy`?). Fix the database by hand, then mark it with " +
          "`prisma migrate resolve` or delete its row from _prisma_migrations.",
      );
    }
  }
  for (const migration of local) {
    const row = applied.get(migration.name);
    if (row && row.checksum !== migration.checksum) {
      throw new Error(
        `Migration ${migration.name} was modified after it was applied (checksum mismatch). ` +
          "Restore the applied migration.sql and put the change in a new migration.",
      );
    }
  }
}

/**
 * One transaction: take the lock, read what is applied (another runner may have applied more
 * since the last transaction), check the history, then apply the first local migration still
 * missing. Returns its name, or null when nothing is left. The lock ends with the transaction.
 */
async function applyNext(client: pg.Client, local: LocalMigration[]): Promise<string | null> {
  await client.query("BEGIN");
  let migration: LocalMigration | undefined;
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [ADVISORY_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const appliedRows = await readAppliedRows(client);
    checkHistory(local, appliedRows);
    migration = local.find((m) => !appliedRows.has(m.name));
    if (!migration) {
      await client.query("COMMIT");
      return null;
    }
    const id = randomUUID();
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    // Simple-query protocol (no parameters): the whole multi-statement file in one round trip.
    await client.query(migration.sql);
    // now() is frozen at the start of the transaction; the finish time is the real one.
    await client.query(
      `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1
       WHERE id = $1`,
      [id],
    );
    await client.query("COMMIT");
    return migration.name;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if (!migration) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${migration.name} failed and was rolled back: ${reason}`, {
      cause: error,
    });
  }
}

export async function applyMigrations(databaseUrl: string, log?: (line: string) => void): Promise<{ applied: string[] }> {
  const local = await readLocalMigrations();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // A second runner waits on the lock, then finds the migration applied and moves on.
    const applied: string[] = [];
    for (let name = await applyNext(client, local); name !== null; name = await applyNext(client, local)) {
      applied.push(name);
      log?.(`Applied migration ${name}`);
    }
    if (applied.length === 0) log?.("Database schema is up to date: no migration to apply.");
    return { applied };
  } finally {
    await client.end();
  }
}
