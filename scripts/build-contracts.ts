// `npm run contracts:build` compiles contracts/ and rewrites lib/chain/generated/*.ts;
// `npm run contracts:check` (--check) only compares and fails when those files are stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedDir, renderArtifacts, staleArtifacts } from "../contracts/compile";

if (process.argv.includes("--check")) {
  const stale = staleArtifacts();
  if (stale.length > 0) {
    console.error(`contract artifacts are stale: run npm run contracts:build (${stale.join(", ")})`);
    process.exit(1);
  }
  console.log("contract artifacts are up to date");
} else {
  mkdirSync(generatedDir, { recursive: true });
  for (const [file, contents] of renderArtifacts()) {
    writeFileSync(path.join(generatedDir, file), contents);
    console.log(`wrote ${path.relative(process.cwd(), path.join(generatedDir, file))}`);
  }
}
