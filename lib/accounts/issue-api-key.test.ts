import { describe, expect, it, vi } from "vitest";
import { MAX_ACTIVE_API_KEYS_PER_ACCOUNT } from "@/lib/accounts/account-limits";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { runCli } from "@/scripts/cli-commands";
import { formData, mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
const { createApiKeyAction } = await import("@/app/dashboard/keys/actions");

const FULL = "This account already has 20 active API keys, the most it can have; revoke one you no longer use before creating another.";

async function fill(accountId: string, n: number) {
  for (let i = 0; i < n; i++) await issueApiKey(accountId);
}

describe("issueApiKey: at most 20 active keys per account", () => {
  it("the 21st is refused with a 409 in words; revoked keys do not count", async () => {
    expect(MAX_ACTIVE_API_KEYS_PER_ACCOUNT).toBe(20);
    const owner = await makeOwner();
    await fill(owner.id, 20);
    await expect(issueApiKey(owner.id)).rejects.toEqual(new ApiError(409, FULL));
    expect(await db.apiKey.count({ where: { accountId: owner.id } })).toBe(20);

    const one = await db.apiKey.findFirstOrThrow({ where: { accountId: owner.id } });
    await db.apiKey.update({ where: { id: one.id }, data: { revokedAt: new Date() } });
    await issueApiKey(owner.id);
    expect(await db.apiKey.count({ where: { accountId: owner.id, revokedAt: null } })).toBe(20);
  });

  it("parallel requests cannot pass the limit together: 10 at once with 15 keys, 5 succeed", async () => {
    const owner = await makeOwner();
    await fill(owner.id, 15);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => issueApiKey(owner.id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toEqual(new ApiError(409, FULL));
    expect(await db.apiKey.count({ where: { accountId: owner.id, revokedAt: null } })).toBe(20);
  });

  it("the dashboard's form and the CLI's owner:key say so", async () => {
    const owner = await signInNewOwner();
    await fill(owner.id, 20);
    expect(await createApiKeyAction(null, formData({ label: "one more" }))).toEqual({
      ok: false,
      message: FULL,
      fieldErrors: {},
    });
    await expect(runCli("owner:key", { owner: owner.id })).rejects.toThrow(FULL);
    expect(await db.apiKey.count({ where: { accountId: owner.id } })).toBe(20);
  });
});
