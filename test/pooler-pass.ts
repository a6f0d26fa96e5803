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
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOTS = ["lib", "test"];
const LEFT_OUT = [/^test\/embedded-default\.test\.ts$/, /^test\/fuzz\//];
const DATABASE_CLIENT = "lib/db.ts";

const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The pooler pass's test files, relative to `root` (the project), in name order. */
export function poolerPassFiles(root: string): string[] {
  const reaches = reachesDatabase(root);
  return ROOTS.flatMap((dir) =>
    (readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => `${dir}/${file.split(path.sep).join("/")}`),
  )
    .filter((file) => !LEFT_OUT.some((pattern) => pattern.test(file)))
    .filter((file) => reaches(path.join(root, file)))
    .sort();
}

function reachesDatabase(root: string): (file: string) => boolean {
  const target = path.join(root, DATABASE_CLIENT);
  const imports = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let found = imports.get(file);
    if (!found) {
      found = [];
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const resolved = resolveImport(root, file, match[1] ?? match[2] ?? match[3]);
        if (resolved) found.push(resolved);
      }
      imports.set(file, found);
    }
    return found;
  };
  const known = new Map<string, boolean>();
  return (start) => {
    if (known.has(start)) return known.get(start)!;
    // Breadth-first over the graph from `start`; every file visited on the way learns nothing
    // (a cycle may hide the answer), only `start` is remembered.
    const seen = new Set([start]);
    const queue = [start];
    let found = false;
    while (queue.length > 0 && !found) {
      const file = queue.shift()!;
      if (file === target || known.get(file) === true) found = true;
      else
        for (const next of importsOf(file)) {
          if (!seen.has(next) && known.get(next) !== false) {
            seen.add(next);
            queue.push(next);
          }
        }
    }
    known.set(start, found);
    return found;
  };
}

function resolveImport(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}
