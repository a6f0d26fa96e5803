// Runs once before the suite: a fresh database on the real PostgreSQL with every migration
// applied, and the Upstash REST client pointed at the real Redis through a test-only bridge.
// Workers inherit the variables set here. The pooler pass (vitest.pooler.config.ts,
// global-setup.pooler.ts) sets the same up with `throughPooler`: the database is created and
// migrated directly (DATABASE_DIRECT_URL), and the suites reach it through PgBouncer in
// transaction mode (DATABASE_URL): PGBOUNCER_URL's (`npm test` starts one), else one started here.
import { ensurePgBouncer, type StartedPgBouncer } from "../scripts/test-services";
import { createTestDatabase, dropTestDatabase } from "./test-database";
import { startUpstashBridge } from "./upstash-bridge";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function setupSuite(options: { throughPooler?: boolean } = {}) {
  const name = `ars_test_${process.pid}`;
  const direct = await createTestDatabase(name);
  process.env.DATABASE_URL = direct;
  let ownPgBouncer: StartedPgBouncer | undefined;
  if (options.throughPooler) {
    if (!process.env.PGBOUNCER_URL) {
      ownPgBouncer = await ensurePgBouncer(Number(new URL(direct).port || 5432), (line) => console.log(`[pooler pass] ${line}`));
    }
    const pooled = new URL(process.env.PGBOUNCER_URL ?? ownPgBouncer!.url);
    pooled.pathname = `/${name}`;
    process.env.DATABASE_URL = pooled.toString();
    process.env.DATABASE_DIRECT_URL = direct;
  }

  const bridge = await startUpstashBridge({ redisUrl: REDIS_URL });
  process.env.UPSTASH_REDIS_REST_URL = bridge.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;

  return async () => {
    await bridge.close();
    await ownPgBouncer?.stop();
    await dropTestDatabase(name);
  };
}

export default function setup() {
  return setupSuite();
}
