// Spec: webhook URLs and tokens "are stored encrypted and are not readable in plaintext, even by
// administrators". A full pg_dump of the database, what an administrator or a leaked backup holds,
// must not contain them in any plain encoding.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { makeAgent } from "@/test/fixtures";

const run = promisify(execFile);
const pgDump = await run("pg_dump", ["--version"]).then(
  () => true,
  () => false,
);
if (!pgDump) console.warn("[encryption-at-rest] pg_dump is not installed (apt-get install postgresql-client): test skipped.");

// The secret as it could appear in a dump: as is, hex (bytea) and base64/base64url at each of the
// three byte alignments it could have inside a larger encoded value (the last, padding-dependent
// characters dropped).
function encodings(secret: string): string[] {
  const forms = [secret, Buffer.from(secret).toString("hex")];
  for (let offset = 0; offset < 3; offset++) {
    const bytes = Buffer.from(secret).subarray(offset);
    for (const encoding of ["base64", "base64url"] as const) forms.push(bytes.toString(encoding).slice(0, -4));
  }
  return forms;
}

describe("webhook credentials at rest", () => {
  it.skipIf(!pgDump)("appear in a pg_dump of the database neither in plain text nor encoded", async () => {
    const url = `https://agent-${randomBytes(6).toString("hex")}.example.com/hooks/agent?k=${randomBytes(6).toString("hex")}`;
    const token = randomBytes(32).toString("base64url");
    const agent = await makeAgent({ webhook: { url, token } });

    // pg_dump needs a session of its own: the server itself in the pooler pass (DATABASE_DIRECT_URL).
    const { stdout } = await run("pg_dump", ["--data-only", "--no-owner", process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL!], {
      maxBuffer: 512 * 1024 * 1024,
    });
    expect(stdout).toContain(agent.id); // the dump does hold the agent's row
    for (const secret of [url, token, new URL(url).hostname]) {
      for (const form of encodings(secret)) expect(stdout.includes(form), `found ${form.slice(0, 12)}…`).toBe(false);
    }
  });
});
