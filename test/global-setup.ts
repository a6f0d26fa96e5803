// Runs once before the suite: a fresh database on the real PostgreSQL with every migration
// applied, and the Upstash REST client pointed at the real Redis through a test-only bridge.
// Workers inherit the variables set here.
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { startUpstashBridge } from "./upstash-bridge";

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export default async function setup() {
  const name = `ars_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  await applyMigrations(process.env.DATABASE_URL);

  const bridge = await startUpstashBridge({ redisUrl: REDIS_URL });
  process.env.UPSTASH_REDIS_REST_URL = bridge.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;

  return async () => {
    await bridge.close();
    const cleanup = new pg.Client({ connectionString: ADMIN_URL });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
}
