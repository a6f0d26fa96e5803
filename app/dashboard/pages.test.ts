// The owner pages render for a signed-in owner: labelled controls, stable button names, empty
// states, and nothing of another account's.
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { makeOwner, makeRental } from "@/test/fixtures";
import { makeOwnerAgent } from "@/test/owner-fixtures";
import { cookieJar, mockedCookies, signInNewOwner } from "./test-session";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: Layout } = await import("@/app/dashboard/layout");
const { default: Overview } = await import("@/app/dashboard/page");
const { default: Listings } = await import("@/app/dashboard/agents/page");
const { default: NewListing } = await import("@/app/dashboard/agents/new/page");
const { default: EditListing } = await import("@/app/dashboard/agents/[id]/page");
const { default: Keys } = await import("@/app/dashboard/keys/page");
const { default: Stats } = await import("@/app/dashboard/stats/page");
const { default: Payouts } = await import("@/app/dashboard/payouts/page");

const html = (element: ReactElement) => renderToStaticMarkup(element);
const noSearch = Promise.resolve({});

// Every <input>, <select> and <textarea> (but hidden ones) has a label: a <label for> naming
// its id, or a <label> around it.
function expectLabelled(markup: string) {
  const controls = [...markup.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].filter(([, , attrs]) => !/type="hidden"/.test(attrs));
  expect(controls.length).toBeGreaterThan(0);
  for (const match of controls) {
    const [control, , attrs] = match;
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1];
    const before = markup.slice(0, match.index);
    const wrapped = before.lastIndexOf("<label") > before.lastIndexOf("</label>");
    expect((id !== undefined && markup.includes(`for="${id}"`)) || wrapped, control).toBe(true);
  }
}

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("the layout names the account and has the dashboard navigation with Sign out", async () => {
    const markup = html(await Layout({ children: "content" }));
    expect(markup).toContain('aria-label="Dashboard"');
    for (const [href, label] of [
      ["/dashboard/agents", "Listings"],
      ["/dashboard/keys", "API keys"],
      ["/dashboard/stats", "Stats"],
      ["/dashboard/payouts", "Payouts"],
      ["/dashboard/rentals", "My rentals"],
      ["/dashboard/notifications", "Notifications"],
    ]) {
      expect(markup).toContain(`href="${href}">${label}</a>`);
    }
    expect(markup).toMatch(/<button type="submit">Sign out<\/button>/);
    expect(markup).toContain(owner.email);
  });

  it("the layout and pages send a visitor who is not signed in to /sign-in", async () => {
    cookieJar.value = undefined;
    await expect(Layout({ children: null })).rejects.toMatchObject({ digest: expect.stringContaining("/sign-in") });
    await expect(Keys()).rejects.toMatchObject({ digest: expect.stringContaining("/sign-in") });
  });

  it("empty states: no listings, no keys, stats and payouts with nothing yet", async () => {
    expect(html(await Overview())).toContain("List your first agent");
    expect(html(await Listings({ searchParams: noSearch }))).toContain("You have no listings yet");
    expect(html(await Keys())).toContain("You have no API keys yet.");
    const stats = html(await Stats());
    expect(stats).toContain("Nothing happened in the last 30 days yet");
    expect((stats.match(/role="img"/g) ?? []).length).toBe(5);
    expect(stats).toContain("Show the numbers as a table");
    expect(html(await Payouts())).toContain("no wallet linked");
  });

  it("the new-listing form: labelled fields, category defaults as skills, a Create listing button", async () => {
    const markup = html(await NewListing());
    expectLabelled(markup);
    for (const label of ["Name", "Category", "Description", "Skills", "Price per hour", "Price per day", "Price per month"]) {
      expect(markup).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    }
    expect(markup).toContain("<legend>Channels</legend>");
    expect(markup).toContain('value="scheduling, email, research"');
    expect(markup).toContain('aria-label="Remove skill email"');
    expect(markup).toMatch(/<button type="submit"[^>]*>Create listing<\/button>/);
  });

  it("a listing's page: details filled in, webhook form with Generate token and Test connection, delete", async () => {
    const agent = await makeOwnerAgent(owner.id, { listing: { pricePerDay: null, pricePerMonth: "12.345" } });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expectLabelled(markup);
    expect(markup).toContain("<h1");
    expect(markup).toContain("Owner Agent");
    expect(markup).toMatch(/<label for="[^"]+">Webhook URL<\/label>/);
    expect(markup).toMatch(/<label for="[^"]+">Webhook token<\/label>/);
    expect(markup).toMatch(/<button type="button" class="button">Generate token<\/button>/);
    expect(markup).toMatch(/<button type="submit"[^>]*>Test connection<\/button>/);
    expect(markup).toMatch(/<button type="submit"[^>]*>Save changes<\/button>/);
    expect(markup).toMatch(/aria-label="Delete listing Owner Agent"[^>]*>Delete listing<\/button>/);
    expect(markup).toMatch(/<input [^>]*name="pricePerMonth"[^>]*value="12.345"/);
    expect(markup).toMatch(/<input [^>]*name="pricePerDay"[^>]*value=""/);
    expect(markup).toMatch(/<input type="checkbox" name="channels" checked="" value="API"\/>/);
  });

  it("a listing with rentals on record says why it stays, and offers no delete", async () => {
    const agent = await makeOwnerAgent(owner.id);
    await makeRental(agent.id, { status: "completed", startsInSeconds: -2 * 86_400 });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expect(markup).toContain("This listing has 1 rental on record, so it stays");
    expect(markup).not.toContain("Delete listing Owner Agent");
  });

  it("another account's listing is a 404", async () => {
    const theirs = await makeOwnerAgent((await makeOwner()).id);
    await expect(EditListing({ params: Promise.resolve({ id: theirs.id }), searchParams: noSearch })).rejects.toMatchObject({
      digest: expect.stringMatching(/NOT_FOUND|404/),
    });
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
    expect(listings).toContain("Available");

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
