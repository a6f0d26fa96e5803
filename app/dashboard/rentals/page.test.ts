// The renter dashboard pages rendered as the server renders them, for a signed-in account
// (next/headers' cookies mocked, as in app/(auth)/sign-in/page.test.ts), and their server actions.
import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { mockedCookies, mockedHeaders, signInNewRenter, signOutOfJar } from "@/test/dashboard-session";
import { makeAgent, makeRental } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: RentalsPage } = await import("@/app/dashboard/rentals/page");

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Page Agent ${randomBytes(3).toString("hex")}` } });
});

const rentalFor = (accountId: string, overrides: Parameters<typeof rentalOf>[2] = {}) =>
  rentalOf(agent, { id: accountId, walletAddress: null }, overrides);

beforeEach(signOutOfJar);

describe("/dashboard/rentals", () => {
  it("sends a visitor who is not signed in to /sign-in", async () => {
    await expect(RentalsPage()).rejects.toMatchObject({ digest: expect.stringContaining("/sign-in") });
  });

  it("shows an empty state that links to the marketplace", async () => {
    await signInNewRenter();
    const html = renderToStaticMarkup(await RentalsPage());
    expect(html).toContain("You have no rentals yet");
    expect(html).toContain('href="/"');
  });

  it("lists the account's rentals with status, code, copy button, countdown and links", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId, { durationType: "hour" });
    const stranger = await makeRental(agent.id);
    const html = renderToStaticMarkup(await RentalsPage());
    expect(html).toContain(agent.name);
    expect(html).toContain(`<code class="`);
    expect(html).toContain(rental.id.slice(0, 8));
    expect(html).not.toContain(stranger.id.slice(0, 8));
    expect(html).toMatch(/Status: <\/span>Active/);
    expect(html).toMatch(/role="timer"[^>]*aria-label="(59 minutes|1 hour) left\."/);
    expect(html).toContain(`href="/dashboard/rentals/${rental.id}#playground"`);
    expect(html).toContain(`href="/dashboard/rentals/${rental.id}#rate"`);
    expect(html).toMatch(/aria-label="Copy the code of the [^"]+ rental: [0-9a-f]{8}"/);
  });
});
