#!/bin/sh
# `npm test`'s suites, run by scripts/with-test-services.ts once PostgreSQL, Redis, PgBouncer and
# Chromium answer (docs/testing.md). Two lanes side by side, each about half of the work:
#   - vitest's direct pass, then the production build and the browser tests;
#   - the dev-server test (vitest.dev-server.config.ts: `npm run dev` started eleven times, minutes
#     of compiling with waits in between), then vitest's pooler pass.
# The direct pass and the dev-server test take about as long; the pooler pass then runs beside the
# build and the browser tests, which leave a third of the two cores idle.
# The second lane's output goes to a file, printed once both lanes have ended so that the two
# never interleave. The exit status is the first lane's failure, else the second lane's.
set -u
mkdir -p test-results
log=test-results/second-lane.log

second_lane() {
  # A background job of a script ignores Ctrl-C: stopping the suites (TERM, below) stops the
  # vitest run in progress.
  trap 'kill "$running" 2>/dev/null; wait "$running"; exit 143' TERM
  npx vitest run -c vitest.dev-server.config.ts &
  running=$!
  wait "$running"
  dev_server=$?
  # Also when the dev-server test failed: one run reports both.
  npx vitest run -c vitest.pooler.config.ts &
  running=$!
  wait "$running"
  pooler=$?
  [ "$dev_server" -ne 0 ] && exit "$dev_server"
  exit "$pooler"
}

second_lane >"$log" 2>&1 &
second=$!
trap 'kill "$second" 2>/dev/null; wait "$second"; exit 130' INT TERM
npx vitest run && npm run test:e2e
first_status=$?
wait "$second"
second_status=$?
echo
echo "--- npm run test:dev-server, then the pooler pass (beside the suites above; exit $second_status) ---"
cat "$log"
[ "$first_status" -ne 0 ] && exit "$first_status"
exit "$second_status"
