import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { authenticateOwner } from "@/lib/accounts/authenticate-owner";
import { hashApiKey } from "@/lib/crypto/api-key";
import { db } from "@/lib/db";
import { ownerRequest } from "@/test/api-requests";
import { makeOwner } from "@/test/fixtures";
import { tsNodeArgs } from "./node-args";

const run = promisify(execFile);

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, tsNodeArgs("scripts/cli.ts", args, { reactServer: true }));
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// Each command is a process of its own (tsx, Prisma): seconds each on a busy machine.
describe("operator CLI: owner API keys", () => {
  it("owner:key issues a working key; owner:revoke stops it at once", async () => {
    const owner = await makeOwner();
    const issued = await cli(["owner:key", "--owner", owner.id, "--label", "ci deploys"]);
    expect(issued.code, issued.stderr).toBe(0);
    const { apiKey, prefix } = JSON.parse(issued.stdout);
    expect(apiKey).toMatch(/^rck_[0-9A-Za-z]{28}$/);
    expect(prefix).toBe(apiKey.slice(0, 12));
    const row = await db.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(apiKey) } });
    expect([row.accountId, row.prefix, row.label, row.revokedAt]).toEqual([owner.id, prefix, "ci deploys", null]);
    expect((await authenticateOwner(ownerRequest("agents", { key: apiKey }))).accountId).toBe(owner.id);

    const revoked = await cli(["owner:revoke", "--key-prefix", prefix]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: 1 });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).not.toBeNull();
    await expect(authenticateOwner(ownerRequest("agents", { key: apiKey }))).rejects.toMatchObject({ status: 401 });

    const again = await cli(["owner:revoke", "--key-prefix", prefix]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`error: No active API key has the prefix ${prefix}.\n`);
  });

  it("explains bad input on stderr and exits non-zero", async () => {
    const cases: [string[], RegExp][] = [
      [["owner:key"], /--owner: must be an account id/],
      [["owner:key", "--owner", "nope"], /--owner: must be an account id/],
      [["owner:key", "--owner", "00000000-0000-4000-8000-000000000000"], /No account with id/],
      [["owner:revoke"], /--key-prefix: is required/],
      [["owner:revoke", "--key-prefix", "rck_short"], /--key-prefix: must be a key's 12-character prefix/],
      [["owner:revoke", "--key-prefix", "rck_Zz9Zz9Zz"], /No active API key has the prefix rck_Zz9Zz9Zz/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
    }
  });
});
