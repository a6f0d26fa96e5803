#!/bin/sh
# `npm test`'s suites, run by scripts/with-test-services.ts once PostgreSQL, Redis, PgBouncer and
# Chromium answer (docs/testing.md), one after the other; the first that fails ends the run:
#   - vitest's direct pass, then its pooler pass, each in the suite's two parts (test/test-part.ts):
#     the files that run several to a process, then those that need a worker each;
#   - the dev-server test (vitest.dev-server.config.ts: `npm run dev` started eleven times);
#   - the production build, then the browser tests (Playwright) against it.
# One at a time because each keeps the two cores of the CI machine busy by itself: side by side,
# they took longer than one after the other (docs/testing.md, "The order of npm test").
set -u
TEST_PART=shared npx vitest run &&
  TEST_PART=isolated npx vitest run &&
  TEST_PART=shared npx vitest run -c vitest.pooler.config.ts &&
  TEST_PART=isolated npx vitest run -c vitest.pooler.config.ts &&
  npx vitest run -c vitest.dev-server.config.ts &&
  # Without its type check: that is `npm run lint`'s, which CI runs first (next.config.ts).
  NEXT_BUILD_TYPES_CHECKED=1 npm run build --silent &&
  npx playwright test
