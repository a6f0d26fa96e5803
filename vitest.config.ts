import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { packageImports, testFiles } from "./test/import-graph.ts";
import { testPart } from "./test/test-part.ts";

const root = path.dirname(new URL(import.meta.url).pathname);

// Files that take minutes rather than seconds: started first, each on a worker of its own, so the
// rest of the suite runs beside them instead of waiting for them at the end (docs/testing.md).
const SLOW_FILES = ["test/fuzz/api-routes.fuzz.test.ts", "scripts/cli.test.ts"];

/**
 * `npm run dev` started eleven times (vitest.dev-server.config.ts): minutes of compiling, and
 * none of this pass's set-up, so `npm test` runs it after this pass rather than in it
 * (scripts/test-suites.sh).
 */
export const DEV_SERVER_TEST = "test/embedded-default.test.ts";

class SlowFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(slow));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array.prototype.sort is stable: the others keep the base sequencer's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// What the tests load bundled: the heavy packages, and with them every package that hands their
// objects to the project's code or takes them from it, so that there is one copy of each (an error
// of a second, unbundled viem is no instance of the bundled viem's error classes): wagmi and x402
// use viem, and wagmi React Query's context; MCP, x402, the Chat SDK and openai use zod; A2A and
// QStash use jose; the Discord adapter discord-api-types. Every import of them the project makes
// (subpaths such as "viem/accounts" too) is read from its files. Not pg nor Prisma's adapter:
// bundled, pg hung the suite's set-up.
const PREBUNDLED = packageImports(
  root,
  ["lib", "app", "scripts", "test"],
  [
    "viem",
    "wagmi",
    "@tanstack/react-query",
    "@x402/",
    "zod",
    "@modelcontextprotocol/sdk",
    "chat",
    "openai",
    "@chat-adapter/",
    "discord-api-types",
    "@a2a-js/sdk",
    "jose",
    "@upstash/",
  ],
);

// TEST_PART=shared|isolated narrows the run to one of the suite's two parts (test/test-part.ts), which
// also says how its files run (isolate, pool).
const part = testPart(
  root,
  testFiles(root, ["lib", "app", "scripts", "test"]).filter((file) => file !== DEV_SERVER_TEST),
  process.env.TEST_PART,
);

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: part.include,
    isolate: part.isolate,
    pool: part.pool,
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    // Three files at once on a two-core machine (vitest's default would be one): the tests wait on
    // PostgreSQL, anvil, Redis, webhooks and spawned servers far more than they compute, and every
    // file keeps to rows, chains and ports of its own (docs/testing.md). The slowest start first.
    maxWorkers: 3,
    sequence: { sequencer: SlowFilesFirst },
    // PREBUNDLED's packages, each bundled into one file before the run (vitest's dependency
    // optimizer, docs/testing.md): an isolated file's thread would otherwise load viem's
    // thousand-odd modules afresh, and zod's, and the rest (the isolated part's imports took 220 s
    // of its threads' time, against 108–134 s bundled).
    deps: { optimizer: { ssr: { enabled: true, include: PREBUNDLED } } },
    // Hang detectors, not speed goals, so no test or hook sets a shorter one of its own: in CI, with
    // the dev-server lane compiling beside this pass, a chain test of a few transactions took over
    // 20 s and the escrow's property test over 120 s (both seconds long on an idle machine).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    env: {
      NODE_ENV: "test",
      ALLOW_PRIVATE_WEBHOOKS: "1",
      WEBHOOK_TIMEOUT_MS: "1500",
      // Tests change listings between searches: every search counts afresh.
      MARKETPLACE_FACETS_TTL_MS: "0",
      // Tests change a rental and read it back at once: every request looks it up afresh.
      RENTAL_LOOKUP_TTL_MS: "0",
      HEALTH_CHECK_TIMEOUT_MS: "1500",
      RATE_LIMIT_TIMEOUT_MS: "1000",
      // The breaker on failed code lookups is one bucket for the whole service, so every test file
      // (and every run sharing this Redis) would spend from it; its own tests use a limiter of
      // their own (lib/rentals/authenticate-rental.test.ts).
      FAILED_CODE_LOOKUPS_GLOBAL_PER_MINUTE: "60000",
      // The Telegram bot counts as set up everywhere (checkout offers it); tests that exercise a
      // bot point its API URL at their own platform mock. Port 9 (discard) refuses at once.
      TELEGRAM_BOT_TOKEN: "1000:test-telegram-token",
      TELEGRAM_WEBHOOK_SECRET: "test-telegram-secret-0123456789",
      TELEGRAM_BOT_USERNAME: "agent_rental_test_bot",
      TELEGRAM_API_URL: "http://127.0.0.1:9/telegram",
      // Test-only keyring (never used outside tests).
      SECRET_BOX_KEYS: "t1:3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhs=",
    },
  },
});
