import { beforeEach, describe, expect, it, vi } from "vitest";
import { authenticateOwner } from "@/lib/accounts/authenticate-owner";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { listApiKeys } from "@/lib/accounts/list-api-keys";
import { db } from "@/lib/db";
import { cookieJar, formData, mockedCookies, mockedHeaders, redirectOf, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, uniqueIp } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { createApiKeyAction, revokeApiKeyAction } = await import("@/app/dashboard/keys/actions");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("API key actions", () => {
  it("create: the key is in the answer once; only its hash and prefix are stored, under this account", async () => {
    const state = await createApiKeyAction(null, formData({ label: "  deploy script " }));
    expect(state).toMatchObject({ ok: true, apiKey: expect.stringMatching(/^rck_[0-9A-Za-z]{28}$/) });
    if (!("apiKey" in state)) throw new Error("no key");
    expect(state.prefix).toBe(state.apiKey.slice(0, 12));
    const rows = await db.apiKey.findMany({ where: { accountId: owner.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ prefix: state.prefix, label: "deploy script", revokedAt: null });
    expect(JSON.stringify(rows[0])).not.toContain(state.apiKey);
  });

  it("create: a label over 60 characters is refused in words", async () => {
    const state = await createApiKeyAction(null, formData({ label: "x".repeat(61) }));
    expect(state).toMatchObject({ ok: false, fieldErrors: { label: "must be at most 60 characters" } });
  });

  it("list: by prefix with dates, only this account's keys, active first", async () => {
    const first = await issueApiKey(owner.id, "first");
    const second = await issueApiKey(owner.id);
    const stranger = await makeOwner();
    await issueApiKey(stranger.id, "not mine");
    await revokeApiKeyAction(null, formData({ keyId: (await db.apiKey.findFirstOrThrow({ where: { prefix: first.prefix } })).id }));
    const keys = await listApiKeys(owner.id);
    expect(keys.map((k) => [k.prefix, k.label, k.revokedAt !== null])).toEqual([
      [second.prefix, null, false],
      [first.prefix, "first", true],
    ]);
    expect(Object.keys(keys[0]).sort()).toEqual(["createdAt", "id", "label", "lastUsedAt", "prefix", "revokedAt"]);
  });

  it("revoke: the key stops working at once; revoking again is harmless", async () => {
    const { apiKey, prefix } = await issueApiKey(owner.id);
    const row = await db.apiKey.findFirstOrThrow({ where: { prefix } });
    const state = await revokeApiKeyAction(null, formData({ keyId: row.id }));
    expect(state).toMatchObject({
      ok: true,
      message: `Key ${prefix}… is revoked; requests with it are refused from now on.`,
    });
    const req = new Request("http://localhost/api/public/agents", {
      headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": uniqueIp() },
    });
    await expect(authenticateOwner(req)).rejects.toMatchObject({
      status: 401,
    });
    expect(await revokeApiKeyAction(null, formData({ keyId: row.id }))).toMatchObject({ ok: true });
  });

  it("revoke: another account's key (or a made-up id) reads as not found and stays active", async () => {
    const stranger = await makeOwner();
    const { prefix } = await issueApiKey(stranger.id);
    const theirs = await db.apiKey.findFirstOrThrow({ where: { prefix } });
    for (const keyId of [theirs.id, "not-an-id", ""]) {
      expect(await revokeApiKeyAction(null, formData({ keyId }))).toMatchObject({
        ok: false,
        message: "API key not found: no key with this id belongs to your account.",
      });
    }
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: theirs.id } })).revokedAt).toBeNull();
  });

  it("sends a visitor who is not signed in to /sign-in", async () => {
    cookieJar.value = undefined;
    expect(await redirectOf(createApiKeyAction(null, formData({})))).toBe("/sign-in");
    expect(await redirectOf(revokeApiKeyAction(null, formData({ keyId: "x" })))).toBe("/sign-in");
  });
});
