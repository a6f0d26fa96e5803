// The pooler pass (`npm test` runs it after the direct one): the vitest files that use the database
// (test/pooler-pass.ts decides which, from their imports) run again with DATABASE_URL through
// PgBouncer in transaction mode, as a deployment behind a pooler runs; the test database is created
// and migrated directly (DATABASE_DIRECT_URL). PGBOUNCER_URL names the PgBouncer (`npm test`
// starts one); without it test/global-setup.pooler.ts starts its own. docs/testing.md.
import path from "node:path";
import { defineConfig } from "vitest/config";
import { poolerPassFiles } from "./test/pooler-pass.ts";
import { testPart } from "./test/test-part.ts";
import base from "./vitest.config.ts";

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // TEST_PART=shared|isolated: one of the suite's two parts of them (test/test-part.ts).
    ...testPart(root, poolerPassFiles(root), process.env.TEST_PART),
    globalSetup: ["test/global-setup.pooler.ts"],
  },
});
