// The project's test files and what they import, read from the files themselves: how the pooler
// pass (test/pooler-pass.ts) and the two parts of the suite (test/test-part.ts) choose their
// files without anyone keeping a list.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The `*.test.ts` files under `dirs` of `root` (the project), as "dir/…/name.test.ts", in name order. */
export function testFiles(root: string, dirs: string[]): string[] {
  return dirs
    .flatMap((dir) =>
      (readdirSync(path.join(root, dir), { recursive: true }) as string[])
        .filter((file) => file.endsWith(".test.ts"))
        .map((file) => `${dir}/${file.split(path.sep).join("/")}`),
    )
    .sort();
}

/**
 * Whether a file's imports reach a file `isTarget` accepts (the file itself included), following
 * the project's own imports (relative and "@/…"), static and dynamic; packages are not followed.
 * Files are absolute paths.
 */
export function reaches(root: string, isTarget: (file: string) => boolean): (file: string) => boolean {
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
      if (known.get(file) === true || isTarget(file)) found = true;
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
