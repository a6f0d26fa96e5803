#!/bin/sh
# `npm test`'s suites, run by scripts/with-test-services.ts once PostgreSQL, Redis, PgBouncer and
# Chromium answer (docs/testing.md). Two lanes side by side, then the browser tests:
#   - the dev-server test (vitest.dev-server.config.ts: `npm run dev` started eleven times, minutes
#     of compiling with waits in between), then the production build the browser tests run against;
#   - vitest's direct pass, then its pooler pass, each in the suite's two parts (test/test-part.ts):
#     the files that run several to a process, then those that need a worker each;
#   - once both have passed, the browser tests (Playwright) against that build.
# The second lane's output goes to files, printed once the lanes have ended so that the two never
# interleave. The exit status is the first failure: the vitest passes, the build, the browser
# tests, the dev-server test.
set -u
mkdir -p test-results
dev_log=test-results/dev-server.log
build_log=test-results/build.log
dev_status=test-results/dev-server.status
rm -f "$dev_status"
# `npm test` has just generated the Prisma client: `next build`, not `npm run build`, which would
# write it again under the vitest passes that are reading it.
{
  npx vitest run -c vitest.dev-server.config.ts >"$dev_log" 2>&1
  echo $? >"$dev_status"
  npx next build >"$build_log" 2>&1
} &
lane=$!
# A background job of a script ignores Ctrl-C: stopping the suites stops it too.
trap 'kill "$lane" 2>/dev/null; wait "$lane"; exit 130' INT TERM
TEST_PART=shared npx vitest run &&
  TEST_PART=isolated npx vitest run &&
  TEST_PART=shared npx vitest run -c vitest.pooler.config.ts &&
  TEST_PART=isolated npx vitest run -c vitest.pooler.config.ts
suites=$?
wait "$lane"
build=$?
echo
echo "--- next build (after the dev-server test; exit $build) ---"
cat "$build_log"
e2e=1
[ "$suites" -eq 0 ] && [ "$build" -eq 0 ] && { npx playwright test; e2e=$?; }
dev_server=$(cat "$dev_status" 2>/dev/null || echo 1)
echo
echo "--- npm run test:dev-server (beside the vitest passes; exit $dev_server) ---"
cat "$dev_log"
for status in "$suites" "$build" "$e2e" "$dev_server"; do
  [ "$status" -ne 0 ] && exit "$status"
done
exit 0
