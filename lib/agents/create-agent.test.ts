import { describe, expect, it, vi } from "vitest";
import { POST as CREATE } from "@/app/api/public/agents/route";
import { MAX_LISTINGS_PER_ACCOUNT } from "@/lib/accounts/account-limits";
import { createAgent } from "@/lib/agents/create-agent";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { agentListingSchema } from "@/lib/schemas/agent-listing";
import { ownerRequest } from "@/test/api-requests";
import { formData, mockedCookies, redirectOf, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerWithKey } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
const { createListingAction } = await import("@/app/dashboard/agents/actions");

const listing = agentListingSchema.parse({
  name: "Cap Agent",
  description: "Counts.",
  category: "other",
  channels: ["API"],
  pricePerHour: 1,
});
const FULL = "This account already has 50 listings, the most it can have; delete one you no longer need before adding another.";

async function fill(ownerId: string, n: number) {
  for (let i = 0; i < n; i++) await createAgent(ownerId, listing, { status: "offline" });
}

describe("createAgent: at most 50 listings per account", () => {
  it("the 51st is refused with a 409 in words; a deleted listing makes room; other accounts are unaffected", async () => {
    expect(MAX_LISTINGS_PER_ACCOUNT).toBe(50);
    const owner = await makeOwner();
    await fill(owner.id, 50);
    await expect(createAgent(owner.id, listing, { status: "offline" })).rejects.toEqual(new ApiError(409, FULL));
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(50);

    const one = await db.agent.findFirstOrThrow({ where: { ownerId: owner.id } });
    await db.agent.delete({ where: { id: one.id } });
    await createAgent(owner.id, listing, { status: "offline" });
    expect((await createAgent((await makeOwner()).id, listing, { status: "offline" })).name).toBe("Cap Agent");
  });

  it("parallel creations cannot pass the limit together: 10 at once with 45 listings, 5 succeed", async () => {
    const owner = await makeOwner();
    await fill(owner.id, 45);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => createAgent(owner.id, listing, { status: "offline" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toEqual(new ApiError(409, FULL));
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(50);
  });

  it("an account that does not exist is a 404, not a foreign-key error", async () => {
    await expect(createAgent("00000000-0000-4000-8000-000000000000", listing, { status: "offline" })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("POST /public/agents answers the 409 as JSON", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    await fill(accountId, 50);
    const res = await CREATE(
      ownerRequest("agents", {
        key: apiKey,
        body: { name: "One Too Many", description: "x", category: "other", channels: ["API"], pricePerHour: 1 },
      }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: FULL });
  });

  it("the dashboard's form says so and keeps what was typed", async () => {
    const owner = await signInNewOwner();
    await fill(owner.id, 49);
    const fields = { name: "Last One", description: "Fits.", category: "other", channels: ["API"], pricePerHour: "1" };
    expect(await redirectOf(createListingAction(null, formData(fields)))).toMatch(/^\/dashboard\/agents\/[0-9a-f-]{36}\?created=1$/);
    expect(await createListingAction(null, formData({ ...fields, name: "Too Many" }))).toEqual({
      ok: false,
      message: FULL,
      fieldErrors: {},
      values: expect.objectContaining({ name: "Too Many" }),
    });
  });
});
