// Which vitest files the pooler pass (vitest.pooler.config.ts) runs a second time, through
// PgBouncer in transaction mode: decided from the files themselves, so a new test is in or out by
// the same rule without anyone keeping a list (docs/testing.md, "The pooler pass").
//
// The rule: a test file under lib/ or test/ whose imports reach lib/db.ts (the one database client),
// following the project's own imports (relative and "@/…"), static and dynamic. lib/ holds the
// services, where every query, transaction and lock is written; test/ the scenarios across them
// (chaos, the chain's sweeps and reorgs). Left out:
//   - app/ and scripts/ tests: route handlers, pages and tools over those same services; through a
//     pooler they would exercise the same statements again at twice the cost;
//   - tests that start their own server or data folder and never use the suite's database through
//     DATABASE_URL (test/embedded-default.test.ts: `npm run dev` on its own PGlite);
//   - test/fuzz/: random requests to every route, about the answers' shape, not the database.
import path from "node:path";
import { reaches, testFiles } from "./import-graph";

const ROOTS = ["lib", "test"];
const LEFT_OUT = [/^test\/embedded-default\.test\.ts$/, /^test\/fuzz\//];
const DATABASE_CLIENT = "lib/db.ts";

/** The pooler pass's test files, relative to `root` (the project), in name order. */
export function poolerPassFiles(root: string): string[] {
  const target = path.join(root, DATABASE_CLIENT);
  const reachesDatabase = reaches(root, (file) => file === target);
  return testFiles(root, ROOTS)
    .filter((file) => !LEFT_OUT.some((pattern) => pattern.test(file)))
    .filter((file) => reachesDatabase(path.join(root, file)));
}
