// Property-based fuzzing of every route handler under app/ (the APIs, the bots, the crons, A2A and
// the agent cards; a test below fails when one is missing): random methods, headers
// (garbage X-API-Key, Authorization, Content-Type, Content-Length, Cookie, Origin, …) and bodies
// (random bytes and text, random JSON, JSON shaped like each route's real body, truncated JSON,
// forms, oversize bodies), FUZZ_RUNS cases per route (default 1,000), each handler called as
// Next.js calls it, against real rows, a real webhook and a private anvil chain. Every answer
// must be below 500, but for chat's 502 and 503 (ALLOWED_5XX, the spec's), and every 4xx must
// be JSON `{ "error": "<message>" }`.
//
// Each route runs with seed FUZZ_SEED + its index (FUZZ_SEED defaults to 20261123). fast-check
// prints the seed and path of a failure; replay exactly that case with
//   FUZZ_ONLY=<route path> FUZZ_SEED=<printed seed> FUZZ_PATH=<printed path> npx vitest run test/fuzz
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "@/lib/env";
import { check, FUZZ_STATS } from "./fuzz-requests";
import { caseOf, ROUTES } from "./fuzz-routes";
import { buildWorld, type World } from "./fuzz-world";

// The bots answer the platform at once and run the rest after the response (next/server's after(),
// which needs Next.js's request scope): here that later work is dropped; the answer is what is fuzzed.
vi.mock("next/server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/server")>()),
  after: () => {},
}));

const RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const ONLY = process.env.FUZZ_ONLY;

let world: World;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // Thousands of dev-outbox e-mails and request logs would cost more than the requests; errors
  // (an unhandled one is also a 500, which fails the property) still print.
  for (const level of ["log", "info", "warn", "debug"] as const) vi.spyOn(console, level).mockImplementation(() => {});
  // Rate limits on the embedded default's in-memory adapter (the same policies through the same
  // code, lib/ratelimit/policies.ts): 25,000 requests stay off the Redis other test files share
  // (a global limit tripped here would answer their requests), at a third of the cost.
  Object.assign(env, { UPSTASH_REDIS_REST_URL: undefined, UPSTASH_REDIS_REST_TOKEN: undefined });
  ({ world, close } = await buildWorld());
}, 300_000);

afterAll(async () => {
  await close?.();
  if (process.env.FUZZ_STATS)
    process.stdout.write(
      `${[...FUZZ_STATS]
        .sort()
        .map(([k, v]) => `${v}\t${k}`)
        .join("\n")}\n`,
    );
});

it("fuzzes every route handler under app/ (a catch-all by a path under it)", () => {
  const files = (readdirSync("app", { recursive: true }) as string[])
    .filter((file) => /(^|\/)route\.ts$/.test(file))
    .map((file) => `/${file.replace(/\/?route\.ts$/, "")}`);
  const fuzzed = ROUTES.map((route) => route.path.replace(/\/nope(\/deeper)?$/, "/[...path]"));
  expect(files.filter((file) => !fuzzed.includes(file))).toEqual([]);
});

describe.concurrent(`every route, ${RUNS} random requests each (seed ${SEED})`, () => {
  ROUTES.forEach((route, index) => {
    // Generous: a loaded machine (the whole suite on two cores) may take minutes; nothing here waits on time.
    it.skipIf(ONLY !== undefined && ONLY !== route.path)(route.path, { timeout: 600_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(caseOf(route), (c) => check(world, route, c)),
        { numRuns: RUNS, seed: ONLY ? SEED : SEED + index, path: process.env.FUZZ_PATH },
      );
    });
  });
});
