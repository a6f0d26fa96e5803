// The project's test files and what they import, read from the files themselves: how the pooler
// pass (test/pooler-pass.ts) and the two parts of the suite (test/test-part.ts) choose their
// files, and vitest.config.ts the packages it bundles before the run, without anyone keeping a list.
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

/**
 * Every package import (such as "viem", "viem/accounts" or "@x402/evm/exact/client") in the
 * `.ts`/`.tsx` files under `dirs` of `root` whose package `packages` names, sorted: "viem" names
 * the package and its subpaths, "@x402/" every package of the scope. Generated code
 * (`generated` folders) is not read.
 */
export function packageImports(root: string, dirs: string[], packages: string[]): string[] {
  const named = (specifier: string) =>
    packages.some((p) => (p.endsWith("/") ? specifier.startsWith(p) : specifier === p || specifier.startsWith(`${p}/`)));
  const found = new Set<string>();
  for (const dir of dirs) {
    for (const file of readdirSync(path.join(root, dir), { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(file) || file.split(path.sep).includes("generated")) continue;
      for (const match of readFileSync(path.join(root, dir, file), "utf8").matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3];
        if (named(specifier)) found.add(specifier);
      }
    }
  }
  return [...found].sort();
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
