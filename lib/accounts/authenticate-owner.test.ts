import { afterEach, describe, expect, it, vi } from "vitest";
import { authenticateOwner } from "@/lib/accounts/authenticate-owner";
import { generateApiKey } from "@/lib/crypto/api-key";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerWithKey } from "@/test/fixtures";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe("authenticateOwner", () => {
  it("accepts a key as Bearer or as X-API-Key and returns the account and key ids", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const row = await db.apiKey.findFirstOrThrow({ where: { accountId } });
    for (const auth of ["bearer", "x-api-key"] as const) {
      expect(await authenticateOwner(ownerRequest("agents", { key: apiKey, auth }))).toEqual({
        accountId,
        keyId: row.id,
      });
    }
  });

  it("401: missing key, or an empty Bearer", async () => {
    for (const req of [ownerRequest("agents"), ownerRequest("agents", { headers: { authorization: "Bearer " } })]) {
      const error = await failure(authenticateOwner(req));
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/Missing API key/);
    }
  });

  it("401 without a database lookup: malformed keys (wrong prefix, length, characters or checksum)", async () => {
    const lookup = vi.spyOn(db.apiKey, "findUnique");
    const good = generateApiKey().key;
    const typo = `${good.slice(0, 10)}${good[10] === "a" ? "b" : "a"}${good.slice(11)}`;
    for (const key of ["rck_short", good.replace("rck_", "rk_"), `${good}x`, good.replace(/.$/, "!"), typo, "a rental code"]) {
      const error = await failure(authenticateOwner(ownerRequest("agents", { key })));
      expect(error.status, key).toBe(401);
      expect(error.message).toMatch(/Malformed API key/);
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it("401 with one message for unknown and revoked keys", async () => {
    const unknown = await failure(authenticateOwner(ownerRequest("agents", { key: generateApiKey().key })));
    const { accountId, apiKey } = await makeOwnerWithKey();
    await db.apiKey.updateMany({ where: { accountId }, data: { revokedAt: new Date() } });
    const revoked = await failure(authenticateOwner(ownerRequest("agents", { key: apiKey })));
    expect([unknown.status, revoked.status]).toEqual([401, 401]);
    expect(unknown.message).toBe("Invalid or revoked API key.");
    expect(revoked.message).toBe(unknown.message);
  });

  it("records lastUsedAt at most once a minute", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const where = { accountId };
    expect((await db.apiKey.findFirstOrThrow({ where })).lastUsedAt).toBeNull();

    // Date stands still (timers do not), so "now" is exact.
    vi.useFakeTimers({ toFake: ["Date"] });
    await authenticateOwner(ownerRequest("agents", { key: apiKey }));
    const first = (await db.apiKey.findFirstOrThrow({ where })).lastUsedAt!;
    expect(first.getTime()).toBe(Date.now());

    const writes = vi.spyOn(db.apiKey, "updateMany");
    await authenticateOwner(ownerRequest("agents", { key: apiKey }));
    expect(writes).not.toHaveBeenCalled();
    expect((await db.apiKey.findFirstOrThrow({ where })).lastUsedAt).toEqual(first);

    // Once the recorded use is over a minute old, the next request moves it forward.
    const old = new Date(Date.now() - 61_000);
    await db.apiKey.updateMany({ where, data: { lastUsedAt: old } });
    writes.mockClear();
    await authenticateOwner(ownerRequest("agents", { key: apiKey }));
    expect(writes).toHaveBeenCalledTimes(1);
    expect((await db.apiKey.findFirstOrThrow({ where })).lastUsedAt!.getTime()).toBe(Date.now());
  });
});
