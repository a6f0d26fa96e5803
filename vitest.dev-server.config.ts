// The dev-server test (`npm run test:dev-server`; `npm test` runs it after the direct and pooler
// passes, before the build and the browser tests, scripts/test-suites.sh): `npm run dev` with nothing
// configured, then restarted ten times (docs/testing.md). It starts its own embedded database,
// chain and Redis-free app, so it needs none of the suite's set-up. One file, in a forked process
// (the suite's isolated files run on threads): it is the parent of every `npm run dev` it starts.
import { defineConfig } from "vitest/config";
import base, { DEV_SERVER_TEST } from "./vitest.config.ts";

export default defineConfig({
  ...base,
  test: { ...base.test, include: [DEV_SERVER_TEST], isolate: true, pool: "forks", globalSetup: [] },
});
