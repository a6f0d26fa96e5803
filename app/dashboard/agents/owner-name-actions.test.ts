// The owner's public name: saved, shown as "by …" on the marketplace, removable; refused in words.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { findMarketplaceAgent } from "@/lib/agents/find-marketplace-agent";
import { formData, mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwnerAgent } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { saveDisplayNameAction } = await import("@/app/dashboard/agents/owner-name-actions");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("saveDisplayNameAction", () => {
  it("saves a trimmed name the marketplace shows, and a blank one removes it", async () => {
    const agent = await makeOwnerAgent(owner.id);
    expect((await findMarketplaceAgent(agent.id))?.ownerName).toBeNull();
    expect(await saveDisplayNameAction(null, formData({ displayName: "  Ada Labs " }))).toEqual({
      ok: true,
      message: 'Saved. Your listings now show "by Ada Labs".',
    });
    expect((await findMarketplaceAgent(agent.id))?.ownerName).toBe("Ada Labs");
    expect(await saveDisplayNameAction(null, formData({ displayName: "   " }))).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Removed/),
    });
    expect((await findMarketplaceAgent(agent.id))?.ownerName).toBeNull();
  });

  it("refuses a name too long or with control characters, and keeps the old one", async () => {
    const agent = await makeOwnerAgent(owner.id);
    await saveDisplayNameAction(null, formData({ displayName: "Ada Labs" }));
    expect(await saveDisplayNameAction(null, formData({ displayName: "x".repeat(61) }))).toMatchObject({
      ok: false,
      fieldErrors: { displayName: "must be at most 60 characters" },
    });
    expect(await saveDisplayNameAction(null, formData({ displayName: "Ada\tLabs" }))).toMatchObject({
      ok: false,
      fieldErrors: { displayName: "must not contain control characters (such as a tab or a line break)" },
    });
    expect((await findMarketplaceAgent(agent.id))?.ownerName).toBe("Ada Labs");
  });
});
