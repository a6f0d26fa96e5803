// The renter dashboard pages rendered as the server renders them, for a signed-in account
// (next/headers' cookies mocked, as in app/(auth)/sign-in/page.test.ts), and their server actions.
import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { mockedCookies, signInNewRenter, signOutOfJar } from "@/test/dashboard-session";
import { makeAgent } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: NotificationsPage } = await import("@/app/dashboard/notifications/page");
const { markAllReadAction } = await import("@/app/dashboard/notifications/actions");

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Page Agent ${randomBytes(3).toString("hex")}` } });
});

const rentalFor = (accountId: string, overrides: Parameters<typeof rentalOf>[2] = {}) =>
  rentalOf(agent, { id: accountId, walletAddress: null }, overrides);

beforeEach(signOutOfJar);

describe("/dashboard/notifications", () => {
  it("shows an empty state, then the account's notifications with mark all read", async () => {
    const { accountId } = await signInNewRenter();
    expect(renderToStaticMarkup(await NotificationsPage())).toContain("No notifications");

    const rental = await rentalFor(accountId);
    await db.notification.create({
      data: {
        accountId,
        kind: "rental-ended",
        rentalId: rental.id,
        title: "Your rental has ended",
        body: "Line one\nLine two",
      },
    });
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
