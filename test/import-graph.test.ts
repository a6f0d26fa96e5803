// What vitest.config.ts bundles before the run (test/import-graph.ts, packageImports), on a
// project made up here: every import of the named packages, subpaths and scopes included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageImports } from "./import-graph";

const FILES: Record<string, string> = {
  "lib/chain.ts": 'import { http } from "viem";\nimport { privateKeyToAccount } from "viem/accounts";\nimport type { Hex } from "viem";\n',
  "lib/pay.tsx": 'export { wrapFetchWithPayment } from "@x402/fetch";\nconst client = await import("@x402/evm/exact/client");\n',
  "lib/schema.ts": 'import { z } from "zod";\nimport "./chain";\nimport { add } from "@/lib/pure";\n',
  "lib/others.ts":
    'import viemLike from "viemx";\nimport { PrismaPg } from "@prisma/adapter-pg";\nimport { readFileSync } from "node:fs";\n',
  "lib/notes.md": 'import { z } from "zod/mini";\n',
  "lib/generated/client.ts": 'import * as runtime from "viem/chains";\n',
  "test/harness.test.ts": 'import { describe } from "vitest";\nimport { foundry } from "viem/chains";\n',
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "import-graph-"));
  for (const [file, source] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("packageImports", () => {
  it("finds every import of the named packages and scopes, static and dynamic, once each, sorted", () => {
    expect(packageImports(root, ["lib", "test"], ["viem", "zod", "@x402/"])).toEqual([
      "@x402/evm/exact/client",
      "@x402/fetch",
      "viem",
      "viem/accounts",
      "viem/chains",
      "zod",
    ]);
  });

  it("reads only the folders given, skips generated code and files that are not TypeScript", () => {
    expect(packageImports(root, ["lib"], ["viem", "zod"])).toEqual(["viem", "viem/accounts", "zod"]);
  });

  it("takes a package's name whole: viem is not viemx", () => {
    expect(packageImports(root, ["lib"], ["viem"])).not.toContain("viemx");
    expect(packageImports(root, ["lib"], ["@prisma/adapter-pg"])).toEqual(["@prisma/adapter-pg"]);
  });
});
