import { beforeEach, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { expectLabelled, html, noSearch } from "@/test/dashboard-pages";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: Overview } = await import("@/app/dashboard/page");
const { default: Listings } = await import("@/app/dashboard/agents/page");
const { default: Keys } = await import("@/app/dashboard/keys/page");
const { default: Stats } = await import("@/app/dashboard/stats/page");
const { default: Payouts } = await import("@/app/dashboard/payouts/page");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("empty states: no listings, no keys, stats and payouts with nothing yet", async () => {
    const overview = html(await Overview());
    expect(overview).toContain("You have not rented an agent yet.");
    expect(overview).toContain("Run an agent? List it");
    expect(html(await Listings({ searchParams: noSearch }))).toContain("You have no listings yet");
    expect(html(await Keys())).toContain("You have no API keys yet.");
    const stats = html(await Stats());
    expect(stats).toContain("Nothing happened in the last 30 days yet");
    expect((stats.match(/role="img"/g) ?? []).length).toBe(5);
    expect(stats).toContain("Show the numbers as a table");
    expect(html(await Payouts())).toContain("no wallet linked");
  });

  it("lists this account's listings and keys only, with the figures", async () => {
    const mine = await makeOwnerAgent(owner.id, { listing: { name: "Mine" } });
    await makeRental(mine.id, { status: "completed", startsInSeconds: -2 * 86_400 });
    const theirs = await makeOwner();
    await makeOwnerAgent(theirs.id, { listing: { name: "Theirs" } });
    const { prefix } = await issueApiKey(owner.id, "ci");
    const { prefix: otherPrefix } = await issueApiKey(theirs.id);

    const listings = html(await Listings({ searchParams: noSearch }));
    expect(listings).toContain("Mine");
    expect(listings).not.toContain("Theirs");
    // Made like the owner API makes them: `available`, but nobody can rent it before a webhook.
    expect(listings).toContain(">Not connected</span>");
    expect(listings).not.toContain(">Available</span>");

    const keys = html(await Keys());
    expect(keys).toContain(`<code>${prefix}…</code>`);
    expect(keys).not.toContain(otherPrefix);
    expect(keys).toContain(`aria-label="Revoke key ${prefix}"`);
    expectLabelled(keys);

    const stats = html(await Stats());
    expect(stats).toContain("Mine");
    expect(stats).not.toContain("Theirs");
    expect(stats).toContain("10.00 USDC");
    expect(html(await Payouts())).toContain("10.00 USDC");
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(1);
  });
});
