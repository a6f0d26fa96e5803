// The overview and the menu fit the account: a renter sees the rentals running now (time left, a
// way in) first and "My rentals" second in the menu, and the owner's items only once the account
// lists an agent ("List an agent" until then); an owner who rents nothing now sees the listings
// first; nobody is told "0 active rentals" while holding some.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { html } from "@/test/dashboard-pages";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: Overview } = await import("@/app/dashboard/page");
const { default: Layout } = await import("@/app/dashboard/layout");

const menuOrder = (markup: string) => [...markup.matchAll(/<li><a href="(\/dashboard[^"]*)"/g)].map((m) => m[1]);
const comesBefore = (markup: string, first: string, second: string) => markup.indexOf(first) < markup.indexOf(second);

let account: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  account = await signInNewOwner();
});

describe("a role-aware dashboard", () => {
  it("a renter with two running rentals sees them first, with time left and a way into each", async () => {
    const owner = await makeOwner();
    const echo = await makeOwnerAgent(owner.id, { listing: { name: "Echo Agent" } });
    const poet = await makeOwnerAgent(owner.id, { listing: { name: "Poet Agent" } });
    const a = await rentalOf(echo, account);
    const b = await rentalOf(poet, account);
    await rentalOf(poet, account, { status: "completed", startsInSeconds: -3 * 86_400 });

    const overview = html(await Overview());
    expect(overview).toContain("2 rentals running now");
    expect(overview).toContain("All rentals (3)");
    for (const [rental, name] of [
      [a, "Echo Agent"],
      [b, "Poet Agent"],
    ] as const) {
      expect(overview).toContain(`<h3>${name}</h3>`);
      expect(overview).toContain(`href="/dashboard/rentals/${rental.id}#playground"`);
    }
    expect(overview).toMatch(
      /Time left: <span[^>]*role="timer" aria-label="23 hours and 59 minutes left\.|Time left: <span[^>]*role="timer" aria-label="1 day left\./,
    );
    expect(comesBefore(overview, "Your rentals", "Run an agent? List it")).toBe(true);
    expect(overview).not.toContain("Your listings");

    // Nothing listed: no listings, figures, payouts or keys to show, one way to list an agent.
    const layout = html(await Layout({ children: null }));
    expect(menuOrder(layout)).toEqual(["/dashboard", "/dashboard/rentals", "/dashboard/agents/new", "/dashboard/notifications"]);
    expect(layout).toContain('<a href="/dashboard/agents/new">List an agent</a>');
  });

  it("an account with nothing yet is offered to list an agent, and sees the owner's items once it lists one", async () => {
    expect(menuOrder(html(await Layout({ children: null })))).toEqual([
      "/dashboard",
      "/dashboard/rentals",
      "/dashboard/agents/new",
      "/dashboard/notifications",
    ]);
    await makeOwnerAgent(account.id, { listing: { name: "First" } });
    const layout = html(await Layout({ children: null }));
    expect(menuOrder(layout)).toContain("/dashboard/keys");
    expect(layout).not.toContain("List an agent");
  });

  it("an owner renting nothing now sees the listings first, and the renter part after", async () => {
    await makeOwnerAgent(account.id, { listing: { name: "Mine" } });
    const overview = html(await Overview());
    expect(comesBefore(overview, "Your listings", "Your rentals")).toBe(true);
    expect(overview).toContain("You have not rented an agent yet.");
    expect(overview).not.toContain("Run an agent? List it");
    expect(menuOrder(html(await Layout({ children: null })))).toEqual([
      "/dashboard",
      "/dashboard/agents",
      "/dashboard/stats",
      "/dashboard/payouts",
      "/dashboard/keys",
      "/dashboard/rentals",
      "/dashboard/notifications",
    ]);
  });

  it("an owner who also rents now sees the running rental first", async () => {
    await makeOwnerAgent(account.id, { listing: { name: "Mine" } });
    const other = await makeOwner();
    await rentalOf(await makeOwnerAgent(other.id, { listing: { name: "Theirs" } }), account);
    const overview = html(await Overview());
    expect(comesBefore(overview, "Your rentals", "Your listings")).toBe(true);
    expect(overview).toContain("1 rental running now");
    expect(menuOrder(html(await Layout({ children: null }))).slice(0, 2)).toEqual(["/dashboard", "/dashboard/rentals"]);
  });
});
