// What vitest.config.ts bundles before the run (test/import-graph.ts, packageImports), on a
// project made up here: every import of the named packages, subpaths and scopes included. The
// made-up sources are put together by `from()`, so that this file's own text imports nothing the
// real project's reading would find.
import { describe, expect, it } from "vitest";
import { packageImports } from "./import-graph";
import { madeUpProject } from "./made-up-project";

const from = (what: string, specifier: string) => `${what} from "${specifier}";\n`;

const FILES: Record<string, string> = {
  "lib/chain.ts":
    from("import { http }", "viem") + from("import { privateKeyToAccount }", "viem/accounts") + from("import type { Hex }", "viem"),
  "lib/pay.tsx": `${from("export { wrapFetchWithPayment }", "@x402/fetch")}const client = await import(${JSON.stringify("@x402/evm/exact/client")});\n`,
  "lib/schema.ts": from("import { z }", "zod") + from("import { add }", "@/lib/pure"),
  "lib/others.ts":
    from("import viemLike", "viemx") + from("import { PrismaPg }", "@prisma/adapter-pg") + from("import { readFileSync }", "node:fs"),
  "lib/notes.md": from("import { z }", "zod/mini"),
  "lib/generated/client.ts": from("import * as runtime", "viem/chains"),
  "test/harness.test.ts": from("import { describe }", "vitest") + from("import { foundry }", "viem/chains"),
};

const root = madeUpProject(FILES);

describe("packageImports", () => {
  it("finds every import of the named packages and scopes, static and dynamic, once each, sorted", () => {
    expect(packageImports(root(), ["lib", "test"], ["viem", "zod", "@x402/"])).toEqual([
      "@x402/evm/exact/client",
      "@x402/fetch",
      "viem",
      "viem/accounts",
      "viem/chains",
      "zod",
    ]);
  });

  it("reads only the folders given, skips generated code and files that are not TypeScript", () => {
    expect(packageImports(root(), ["lib"], ["viem", "zod"])).toEqual(["viem", "viem/accounts", "zod"]);
  });

  it("takes a package's name whole: viem is not viemx", () => {
    expect(packageImports(root(), ["lib"], ["viem"])).not.toContain("viemx");
    expect(packageImports(root(), ["lib"], ["@prisma/adapter-pg"])).toEqual(["@prisma/adapter-pg"]);
  });
});
