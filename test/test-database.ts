// A throwaway database on the test PostgreSQL (TEST_DATABASE_ADMIN_URL, by default the local
// server with trust auth), with every migration applied: for the vitest and the browser suites.
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates the database `name` afresh (dropping a leftover of that name) and migrates it; its URL. */
export async function createTestDatabase(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return url.toString();
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
