// A database of one test file's own, for code that works through every row of its kind (the
// release sweep, the e-mail retry cron): the suite's other files share one database and run at
// the same time, so their rows would change what such a run finds. Call it at the top of the file.
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestDatabase, dropTestDatabase } from "./test-database";

export function isolateDatabase(label: string): void {
  const name = `ars_test_${process.pid}_${label.replace(/\W/g, "_")}`;
  beforeAll(async () => {
    // The client is created on first use, from env: nothing may have used it yet.
    if ((globalThis as { prisma?: unknown }).prisma) throw new Error("isolateDatabase: the shared database was used before it");
    Object.assign(env, { DATABASE_URL: await createTestDatabase(name) });
  });
  afterAll(async () => {
    await db.$disconnect();
    await dropTestDatabase(name);
  });
}
