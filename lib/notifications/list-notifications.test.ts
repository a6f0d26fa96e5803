// A renter's notifications on the real database: only their own, newest first, marked read.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { makeAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

type Agent = Awaited<ReturnType<typeof makeAgent>>;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Renter Dash ${hex(4)}` } });
});

describe("notifications", () => {
  it("the rental-ended notification reaches the renter's list only, and mark-read is scoped", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const me = await makeRenterAccount({ email: true });
    const other = await makeRenterAccount();
    const mine = await rentalOf(agent, me, { startsInSeconds: -7200, endsInSeconds: -60 });
    const theirs = await rentalOf(agent, other, { startsInSeconds: -7200, endsInSeconds: -60 });
    await completeRentals([mine.id, theirs.id], null);
    await completeRentals([mine.id], null); // again: still one notification

    const { notifications, unread } = await listNotifications(me.id);
    expect(unread).toBe(1);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      kind: "rental-ended",
      readAt: null,
      title: expect.stringContaining(agent.name),
      link: { href: `/dashboard/rentals/${mine.id}`, label: "View the rental" },
    });
    const theirList = await listNotifications(other.id);
    expect(theirList.notifications.map((n) => n.link?.href)).toEqual([`/dashboard/rentals/${theirs.id}`]);

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
    const me = await makeRenterAccount();
    expect(await listNotifications(me.id)).toEqual({ notifications: [], unread: 0 });
    const base = Date.now();
    for (const [i, title] of ["first", "second", "third"].entries()) {
      await db.notification.create({
        data: { accountId: me.id, kind: "rental-ended", title, body: "b", createdAt: new Date(base + i * 1000) },
      });
    }
    const { notifications, unread } = await listNotifications(me.id);
    expect(notifications.map((n) => n.title)).toEqual(["third", "second", "first"]);
    expect(unread).toBe(3);
  });
});
