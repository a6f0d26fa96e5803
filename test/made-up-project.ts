// A project made up of a few files in a folder of its own, for the tests of the suite's own
// tooling (test/test-part.test.ts, test/import-graph.test.ts): written before the file's tests,
// removed after them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/** `files` (path in the project → source) written to a temporary folder; call the result for its path. */
export function madeUpProject(files: Record<string, string>): () => string {
  let root = "";
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "made-up-project-"));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), source);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return () => root;
}
