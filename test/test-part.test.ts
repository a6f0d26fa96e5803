// The suite's two parts (test/test-part.ts) on a project made up here: which files share
// processes and which get one each, by what they do and what they import.
import { describe, expect, it } from "vitest";
import { testFiles } from "./import-graph";
import { madeUpProject } from "./made-up-project";
import { testPart } from "./test-part";

const FILES: Record<string, string> = {
  "lib/pure.ts": "export const add = (a: number, b: number) => a + b;\n",
  "lib/pure.test.ts": 'import { add } from "./pure";\nit("adds", () => expect(add(1, 2)).toBe(3));\n',
  "lib/mocked.test.ts": 'vi.mock("./pure", () => ({ add: () => 0 }));\n',
  "lib/spied.test.ts": 'const spy = vi.spyOn(console, "log");\n',
  "lib/timers.test.ts": "vi.useFakeTimers();\n",
  "lib/stubs-env.test.ts": 'vi.stubEnv("TZ", "UTC");\n',
  "lib/sets-env.test.ts": 'import { env } from "@/lib/env";\nObject.assign(env, { CHAIN_ID: 1 });\n',
  "lib/sets-process-env.test.ts": 'process.env.TZ = "UTC";\n',
  "lib/compares-env.test.ts": 'import { env } from "@/lib/env";\nexpect(env.CHAIN_ID === 1).toBe(false);\n',
  "lib/env.ts": "export const env = { CHAIN_ID: 0 };\n",
  "test/harness.ts": 'import { env } from "@/lib/env";\nexport function configure() {\n  env.CHAIN_ID = 31337;\n}\n',
  "test/through-harness.test.ts": 'import { configure } from "./harness";\nconfigure();\n',
  "test/private.test.ts": 'import { isolateDatabase } from "./private-database";\nisolateDatabase("mine");\n',
  "test/private-database.ts": "export function isolateDatabase(label: string) {}\n",
  "test/dynamic.test.ts": 'it("loads", async () => { await import("./harness"); });\n',
};

const root = madeUpProject(FILES);

const files = () => testFiles(root(), ["lib", "test"]);

describe("testPart", () => {
  it("without a part, runs every file isolated, each on a thread of its own", () => {
    expect(testPart(root(), files(), undefined)).toEqual({ include: files(), isolate: true, pool: "threads" });
  });

  it("shares processes only among files that change nothing a later file would see", () => {
    expect(testPart(root(), files(), "shared")).toEqual({
      include: ["lib/compares-env.test.ts", "lib/pure.test.ts"],
      isolate: false,
      pool: "forks",
    });
  });

  it("gives a thread each to files that mock, spy, fake timers, set or stub the settings or take a database, also through what they import", () => {
    expect(testPart(root(), files(), "isolated")).toEqual({
      include: [
        "lib/mocked.test.ts",
        "lib/sets-env.test.ts",
        "lib/sets-process-env.test.ts",
        "lib/spied.test.ts",
        "lib/stubs-env.test.ts",
        "lib/timers.test.ts",
        "test/dynamic.test.ts",
        "test/private.test.ts",
        "test/through-harness.test.ts",
      ],
      isolate: true,
      pool: "threads",
    });
  });

  it("refuses a part it does not know", () => {
    expect(() => testPart(root(), files(), "all")).toThrow(/TEST_PART is "shared" or "isolated", not "all"/);
  });
});
