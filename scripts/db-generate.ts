// `npm run db:generate`: the Prisma client in lib/generated/prisma, generated again only when the
// schema, its config or Prisma's version changed since it was last generated (a stamp beside it). Every
// `npm run dev`, build and test run starts with it: an unchanged client is left as it is, so a
// restart is quicker and a process already reading the client (a test file beside `npm run dev`
// in the test suite) never sees its files deleted and written again. The migrations engine is
// never needed here (PRISMA_SCHEMA_ENGINE_BINARY=/bin/true, as before).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const output = path.join(root, "lib/generated/prisma");
const stamp = path.join(output, ".generated-from");

const prismaVersion = JSON.parse(readFileSync(path.join(root, "node_modules/prisma/package.json"), "utf8")).version as string;
const source = createHash("sha256")
  .update(readFileSync(path.join(root, "prisma/schema.prisma")))
  .update(readFileSync(path.join(root, "prisma.config.ts")))
  .update(`\nprisma ${prismaVersion}`)
  .digest("hex");

const current = existsSync(stamp) && readFileSync(stamp, "utf8") === source && existsSync(path.join(output, "client.ts"));
if (!current) {
  execFileSync(path.join(root, "node_modules/.bin/prisma"), ["generate"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
  });
  writeFileSync(stamp, source);
}
