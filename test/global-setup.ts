// Runs once before the suite: a fresh database on the real PostgreSQL with every migration
// applied, and the Upstash REST client pointed at the real Redis through a test-only bridge.
// Workers inherit the variables set here.
import { createTestDatabase, dropTestDatabase } from "./test-database";
import { startUpstashBridge } from "./upstash-bridge";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export default async function setup() {
  const name = `ars_test_${process.pid}`;
  process.env.DATABASE_URL = await createTestDatabase(name);

  const bridge = await startUpstashBridge({ redisUrl: REDIS_URL });
  process.env.UPSTASH_REDIS_REST_URL = bridge.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;

  return async () => {
    await bridge.close();
    await dropTestDatabase(name);
  };
}
