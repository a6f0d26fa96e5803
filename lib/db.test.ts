// The client's transactions wait for a busy pool instead of failing: with every connection taken
// (DATABASE_POOL_MAX of them, a handful per instance), a request's transaction waited at most 2 s
// (Prisma's default) and then failed with "Unable to start a transaction in the given time".
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

beforeAll(() => {
  // The client is created on first use, from env: one connection, so the second transaction waits.
  Object.assign(env, { DATABASE_POOL_MAX: 1 });
});
afterAll(() => db.$disconnect());

it("a transaction waits for the pool's only connection, held by another for longer than 2 s", async () => {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const first = db.$transaction(async (tx) => {
    held();
    await tx.$executeRaw`SELECT pg_sleep(3)`;
    return "first";
  });
  await holding;
  const second = db.$transaction(async (tx) => (await tx.$queryRaw<[{ one: number }]>`SELECT 1 AS one`)[0].one);
  expect(await Promise.all([first, second])).toEqual(["first", 1]);
});
