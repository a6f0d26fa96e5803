#!/bin/sh
# `npm test`'s suites, run by scripts/with-test-services.ts once PostgreSQL, Redis, PgBouncer and
# Chromium answer (docs/testing.md). Two lanes side by side:
#   - the dev-server test (vitest.dev-server.config.ts): `npm run dev` started eleven times, minutes
#     of compiling with waits in between, which used to be the direct pass's long pole;
#   - vitest's direct pass, then its pooler pass, then the production build and the browser tests.
# The dev-server test's output goes to a file, printed once both lanes have ended so that the two
# never interleave. The exit status is the first lane's failure, else the dev-server test's.
set -u
mkdir -p test-results
log=test-results/dev-server.log
npx vitest run -c vitest.dev-server.config.ts >"$log" 2>&1 &
dev_server=$!
# A background job of a script ignores Ctrl-C: stopping the suites stops it too.
trap 'kill "$dev_server" 2>/dev/null; wait "$dev_server"; exit 130' INT TERM
npx vitest run && npx vitest run -c vitest.pooler.config.ts && npm run test:e2e
suites=$?
wait "$dev_server"
dev_server_status=$?
echo
echo "--- npm run test:dev-server (beside the suites above; exit $dev_server_status) ---"
cat "$log"
[ "$suites" -ne 0 ] && exit "$suites"
exit "$dev_server_status"
