// The renter dashboard's data rules on the real database: whose rentals an account sees, the
// rating rules (and that ratings reach the marketplace figures), and notifications.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loadAgentViews, loadListingStats } from "@/lib/agents/load-agent-views";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { disputeAbi } from "@/lib/disputes/dispute-abi";
import { db } from "@/lib/db";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { findRenterRental, listRenterRentals, type RenterAccount } from "@/lib/rentals/list-renter-rentals";
import { rateRental } from "@/lib/rentals/rate-rental";
import { parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { makeAgent, makeRental } from "@/test/fixtures";

type Agent = Awaited<ReturnType<typeof makeAgent>>;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const newAddress = () => `0x${hex(20)}`;

async function makeAccount(options: { wallet?: boolean; email?: boolean } = {}): Promise<RenterAccount & { email: string | null }> {
  return db.account.create({
    data: {
      walletAddress: options.wallet ? newAddress() : null,
      email: options.email ? `renter-${hex(6)}@example.com` : null,
    },
    select: { id: true, walletAddress: true, email: true },
  });
}

/** A rental of `agent` that belongs to `account` (renter_id), created `agoSeconds` before now. */
async function rentalOf(agent: Agent, account: RenterAccount, overrides: Parameters<typeof makeRental>[1] = {}) {
  const rental = await makeRental(agent.id, overrides);
  return db.rental.update({ where: { id: rental.id }, data: { renterId: account.id } });
}

let agent: Agent;
let otherAgent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Renter Dash ${hex(4)}` } });
  otherAgent = await makeAgent({ listing: { name: `Other Dash ${hex(4)}` } });
});

describe("notifications", () => {
  it("the rental-ended notification reaches the renter's list only, and mark-read is scoped", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const me = await makeAccount({ email: true });
    const other = await makeAccount();
    const mine = await rentalOf(agent, me, { startsInSeconds: -7200, endsInSeconds: -60 });
    const theirs = await rentalOf(agent, other, { startsInSeconds: -7200, endsInSeconds: -60 });
    await completeRentals([mine.id, theirs.id]);
    await completeRentals([mine.id]); // again: still one notification

    const { notifications, unread } = await listNotifications(me.id);
    expect(unread).toBe(1);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ kind: "rental-ended", rentalId: mine.id, readAt: null, title: expect.stringContaining(agent.name) });
    const theirList = await listNotifications(other.id);
    expect(theirList.notifications.map((n) => n.rentalId)).toEqual([theirs.id]);

    // Someone else's id changes nothing; my own id marks mine.
    expect(await markNotificationRead(me.id, theirList.notifications[0].id)).toBe(false);
    expect((await listNotifications(other.id)).unread).toBe(1);
    expect(await markNotificationRead(me.id, "garbage")).toBe(false);

    expect(await markAllNotificationsRead(me.id)).toBe(1);
    expect(await markAllNotificationsRead(me.id)).toBe(0);
    const after = await listNotifications(me.id);
    expect(after.unread).toBe(0);
    expect(after.notifications[0].readAt).toBeInstanceOf(Date);
    expect((await listNotifications(other.id)).unread).toBe(1);
    expect(await markNotificationRead(other.id, theirList.notifications[0].id)).toBe(true);
    expect((await listNotifications(other.id)).unread).toBe(0);
  });

  it("lists newest first and is empty for a new account", async () => {
    const me = await makeAccount();
    expect(await listNotifications(me.id)).toEqual({ notifications: [], unread: 0 });
    const base = Date.now();
    for (const [i, title] of ["first", "second", "third"].entries()) {
      await db.notification.create({ data: { accountId: me.id, kind: "rental-ended", title, body: "b", createdAt: new Date(base + i * 1000) } });
    }
    const { notifications, unread } = await listNotifications(me.id);
    expect(notifications.map((n) => n.title)).toEqual(["third", "second", "first"]);
    expect(unread).toBe(3);
  });
});
