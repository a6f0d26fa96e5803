// The suite in two parts (`npm test` runs them one after the other, scripts/test-suites.sh), chosen
// by TEST_PART from the files themselves so that a new test is in one part or the other by the same
// rule, without anyone keeping a list (docs/testing.md, "Two parts"):
//   - "shared": files that leave the process as they found it run several to a process (vitest's
//     isolate: false, in forked processes), so each worker loads viem, zod, Prisma and the services
//     once rather than for every file: that loading was about a quarter of the suite's time;
//   - "isolated": files that change what later files in the same worker would see get a worker
//     each (isolate: true), a thread rather than a process: a thread starts with modules and
//     settings of its own (its own process.env) at a fifth less CPU than a forked process. These
//     are the files that replace modules or globals (vi.mock, vi.hoisted, vi.stubGlobal, vi.spyOn,
//     fake timers), set the settings (`env`, `process.env`, vi.stubEnv: a module first loaded
//     under a stubbed setting keeps what it read for every later file) or move to a database of
//     their own (isolateDatabase), themselves or through any project file they import.
// Without TEST_PART (`npx vitest run`, an editor), every file runs isolated.
import { readFileSync } from "node:fs";
import path from "node:path";
import { reaches } from "./import-graph";

const CHANGES_THE_PROCESS =
  /\bvi\.(mock|doMock|hoisted|stubEnv|stubGlobal|spyOn|useFakeTimers)\(|\bisolateDatabase\(|\bObject\.assign\((process\.)?env\b|\b(process\.)?env\.[A-Z][A-Z0-9_]*\s*(=[^=]|\?\?=)|\bdelete\s+(process\.)?env\./;

export type TestPart = { include: string[]; isolate: boolean; pool: "forks" | "threads" };

const ISOLATED = { isolate: true, pool: "threads" } as const;
const SHARED = { isolate: false, pool: "forks" } as const;

/** `files` (relative to `root`, the project) narrowed to `part` (TEST_PART), with how they run. */
export function testPart(root: string, files: string[], part: string | undefined): TestPart {
  if (!part) return { include: files, ...ISOLATED };
  if (part !== "shared" && part !== "isolated") throw new Error(`TEST_PART is "shared" or "isolated", not "${part}"`);
  const changesTheProcess = reaches(root, (file) => CHANGES_THE_PROCESS.test(readFileSync(file, "utf8")));
  const isolated = part === "isolated";
  return {
    include: files.filter((file) => changesTheProcess(path.join(root, file)) === isolated),
    ...(isolated ? ISOLATED : SHARED),
  };
}
