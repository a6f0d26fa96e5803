// The renter dashboard pages rendered as the server renders them, for a signed-in account
// (next/headers' cookies mocked, as in app/(auth)/sign-in/page.test.ts), and their server actions.
import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signInWithWallet } from "@/test/auth-fixtures";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

let cookieValue: string | undefined;
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (name === "ars_session" && cookieValue ? { name, value: cookieValue } : undefined) }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: RentalsPage } = await import("@/app/dashboard/rentals/page");
const { default: RentalPage } = await import("@/app/dashboard/rentals/[id]/page");
const { default: NotificationsPage } = await import("@/app/dashboard/notifications/page");
const { rateRentalAction } = await import("@/app/dashboard/rentals/actions");
const { markAllReadAction } = await import("@/app/dashboard/notifications/actions");

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Page Agent ${randomBytes(3).toString("hex")}` } });
});

async function signIn() {
  const { cookie, accountId, wallet } = await signInWithWallet();
  cookieValue = cookie.slice("ars_session=".length);
  return { accountId, address: wallet.address.toLowerCase() };
}

async function rentalFor(accountId: string, overrides: Parameters<typeof makeRental>[1] = {}) {
  const rental = await makeRental(agent.id, overrides);
  return db.rental.update({ where: { id: rental.id }, data: { renterId: accountId } });
}

const renderRental = async (id: string) => renderToStaticMarkup(await RentalPage({ params: Promise.resolve({ id }) }));

beforeEach(() => {
  cookieValue = undefined;
});

describe("/dashboard/notifications", () => {
  it("shows an empty state, then the account's notifications with mark all read", async () => {
    const { accountId } = await signIn();
    expect(renderToStaticMarkup(await NotificationsPage())).toContain("No notifications");

    const rental = await rentalFor(accountId);
    await db.notification.create({ data: { accountId, kind: "rental-ended", rentalId: rental.id, title: "Your rental has ended", body: "Line one\nLine two" } });
    let html = renderToStaticMarkup(await NotificationsPage());
    expect(html).toContain("1 unread notification.");
    expect(html).toContain("Unread: </span>Your rental has ended");
    expect(html).toContain("Mark all as read");
    expect(html).toContain(`href="/dashboard/rentals/${rental.id}"`);

    await markAllReadAction();
    html = renderToStaticMarkup(await NotificationsPage());
    expect(html).toContain("Everything is read.");
    expect(html).not.toContain("Mark all as read");
  });
});
