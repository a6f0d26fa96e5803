// Reminders before a rental ends (issue 29), on the real database with a given clock: each duration
// type is told at its lead time and not before, once however many runs overlap, again after an
// extension moved its end; never a trial, a disputed, ended or pending rental; an e-mail only to an
// address, a chat notice only to a bound chat. Nothing is sent here: the sender's tests send.
import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { ResendTransport } from "@/lib/email/email-transport";
import { appUrl } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";
import type { DurationType, RentalStatus } from "@/lib/generated/prisma/enums";
import { remindEndingRentals } from "@/lib/rentals/remind-ending-rentals";
import { REMINDER_LEAD_MS } from "@/lib/rentals/reminder-lead";
import { makeAgent } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

// The run claims every due rental of its database: this file's only.
isolateDatabase("rental_reminders");

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LENGTH: Record<DurationType, number> = { hour: HOUR, day: DAY, month: 30 * DAY };
// Queued for Resend (never called here): the rows stay `queued`, nothing is printed.
const transport: ResendTransport = { kind: "resend", apiKey: "re_reminder_test", from: "test@example.com", baseUrl: "http://127.0.0.1:9" };

// Each test has its own moment, far from the others', so no test's rentals are due in another's runs.
let clock = new Date("2030-05-01T09:00:00.000Z").getTime();
const nextMoment = () => {
  clock += 400 * DAY;
  return new Date(clock);
};
const at = (start: Date, ms: number) => new Date(start.getTime() + ms);
const run = (now: Date) => remindEndingRentals(now, transport);

type Options = { email?: boolean; chat?: boolean; status?: RentalStatus; trial?: boolean; name?: string };

/** A rental of a new agent by a new renter, ending at `endsAt`, with a Telegram chat bound unless `chat: false`. */
async function rentalEnding(durationType: DurationType, endsAt: Date, options: Options = {}) {
  const agent = await makeAgent({ listing: { name: options.name ?? "Reminder Agent" } });
  const renter = await makeRenterAccount({ email: options.email ?? true, wallet: true });
  const made = await rentalOf(agent, renter, { durationType });
  const rental = await db.rental.update({
    where: { id: made.id },
    data: {
      startsAt: new Date(endsAt.getTime() - LENGTH[durationType]),
      endsAt,
      status: options.status ?? "active",
      ...(options.trial ? { trial: true, trialMessagesLeft: 5, priceMicro: 0n, feeMicro: 0n } : {}),
    },
  });
  const chatUser = String(randomInt(1, 2 ** 40));
  const binding =
    options.chat === false
      ? null
      : await db.chatBinding.create({
          data: {
            platform: "Telegram",
            chatUser,
            chatId: chatUser,
            chatLabel: "@renter on Telegram",
            rentalId: rental.id,
            openUser: `Telegram:${chatUser}`,
            openRentalId: rental.id,
          },
        });
  return { agent, renter, rental, binding };
}

const emailsOf = (rentalId: string) =>
  db.email.findMany({ where: { idempotencyKey: { startsWith: `rental-ending:${rentalId}:` } }, orderBy: { createdAt: "asc" } });
const noticesOf = (bindingId: string) =>
  db.chatNotice.findMany({ where: { idempotencyKey: { startsWith: `rental-ending:${bindingId}:` } }, orderBy: { createdAt: "asc" } });
const remindedEndOf = async (rentalId: string) =>
  (await db.rental.findUniqueOrThrow({ where: { id: rentalId }, select: { remindedEndsAt: true } })).remindedEndsAt;

describe("remindEndingRentals", () => {
  it.each([
    ["hour", "10 minutes"],
    ["day", "1 hour"],
    ["month", "1 day"],
  ] as const)(
    "tells a %s rental's renter %s before its end, not before, by e-mail and on the bound chat, with the link to extend",
    async (durationType, lead) => {
      const now = nextMoment();
      const endsAt = at(now, REMINDER_LEAD_MS[durationType] + MINUTE);
      const { rental, renter, binding } = await rentalEnding(durationType, endsAt, { name: `Scribe ${durationType}` });

      // A minute before its lead time: nothing.
      expect(await run(now)).toEqual({ reminded: 0, emails: 0, notices: 0 });
      expect(await run(at(now, MINUTE - 1_000))).toEqual({ reminded: 0, emails: 0, notices: 0 });
      expect(await emailsOf(rental.id)).toHaveLength(0);
      expect(await remindedEndOf(rental.id)).toBeNull();

      // At its lead time: told.
      const told = at(now, MINUTE);
      expect(await run(told)).toEqual({ reminded: 1, emails: 1, notices: 1 });
      const link = `${appUrl()}/dashboard/rentals/${rental.id}/extend`;
      const [email] = await emailsOf(rental.id);
      expect(email).toMatchObject({
        to: renter.email,
        subject: `Your rental of "Scribe ${durationType}" ends in ${lead}`,
        status: "queued",
        nextAttemptAt: told,
      });
      expect(email.text).toContain(`(code ${rental.id.slice(0, 8)}) ends at ${formatDateTime(endsAt)}, in ${lead}.`);
      expect(email.text).toContain(`Extend the rental: ${link}`);
      expect(email.html).toContain(`href="${link}"`);
      const [notice] = await noticesOf(binding!.id);
      expect(notice).toMatchObject({ platform: "Telegram", chatUser: binding!.chatUser, chatId: binding!.chatId, status: "queued" });
      expect(notice.text).toBe(
        `Your rental of Scribe ${durationType} ends in ${lead} (${formatDateTime(endsAt)}), and this chat is disconnected then. ` +
          `To keep this chat and the conversation, extend the rental before it ends: ${link}`,
      );
      expect(await remindedEndOf(rental.id)).toEqual(endsAt);

      // Later runs, up to its end: nothing more.
      for (const later of [at(told, 1_000), at(endsAt, -1_000)]) expect(await run(later)).toEqual({ reminded: 0, emails: 0, notices: 0 });
      expect(await emailsOf(rental.id)).toHaveLength(1);
      expect(await noticesOf(binding!.id)).toHaveLength(1);
    },
  );

  it("tells each end once when runs overlap (two at once, then a third)", async () => {
    const now = nextMoment();
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => rentalEnding("hour", at(now, 5 * MINUTE + i * 1_000))));
    const runs = await Promise.all([run(now), run(now), run(at(now, 30_000))]);
    expect(runs.reduce((sum, r) => sum + r.reminded, 0)).toBe(6);
    expect(runs.reduce((sum, r) => sum + r.emails, 0)).toBe(6);
    expect(runs.reduce((sum, r) => sum + r.notices, 0)).toBe(6);
    for (const { rental, binding } of made) {
      expect(await emailsOf(rental.id)).toHaveLength(1);
      expect(await noticesOf(binding!.id)).toHaveLength(1);
    }
    expect(await run(at(now, MINUTE))).toEqual({ reminded: 0, emails: 0, notices: 0 });
  });

  it("tells the new end again after an extension moved ends_at, at the new end's lead time", async () => {
    const now = nextMoment();
    const firstEnd = at(now, 8 * MINUTE);
    const { rental, binding } = await rentalEnding("hour", firstEnd);
    expect(await run(now)).toMatchObject({ reminded: 1 });

    // Extended by an hour: the new end is 68 minutes away, not due yet.
    const newEnd = at(firstEnd, HOUR);
    await db.rental.update({ where: { id: rental.id }, data: { endsAt: newEnd } });
    expect(await run(at(now, MINUTE))).toEqual({ reminded: 0, emails: 0, notices: 0 });
    expect(await run(at(newEnd, -REMINDER_LEAD_MS.hour - 1_000))).toEqual({ reminded: 0, emails: 0, notices: 0 });

    expect(await run(at(newEnd, -REMINDER_LEAD_MS.hour))).toEqual({ reminded: 1, emails: 1, notices: 1 });
    const emails = await emailsOf(rental.id);
    expect(emails.map((e) => e.text.match(/ends at (.*?), in/)?.[1])).toEqual([formatDateTime(firstEnd), formatDateTime(newEnd)]);
    expect((await noticesOf(binding!.id)).map((n) => n.text.includes(formatDateTime(newEnd)))).toEqual([false, true]);
    expect(await remindedEndOf(rental.id)).toEqual(newEnd);
    expect(await run(at(newEnd, -MINUTE))).toEqual({ reminded: 0, emails: 0, notices: 0 });
  });

  it("never tells a trial, a disputed, completed, cancelled or pending rental, nor one already ended", async () => {
    const now = nextMoment();
    const endsAt = at(now, 5 * MINUTE);
    const skipped = await Promise.all([
      rentalEnding("hour", endsAt, { trial: true }),
      rentalEnding("hour", endsAt, { status: "disputed" }),
      rentalEnding("hour", endsAt, { status: "completed" }),
      rentalEnding("hour", endsAt, { status: "cancelled" }),
      rentalEnding("hour", endsAt, { status: "pending" }),
      rentalEnding("hour", at(now, -1_000)), // ended a second ago, never told
    ]);
    expect(await run(now)).toEqual({ reminded: 0, emails: 0, notices: 0 });
    for (const { rental, binding } of skipped) {
      expect(await emailsOf(rental.id)).toHaveLength(0);
      expect(await noticesOf(binding!.id)).toHaveLength(0);
      expect(await remindedEndOf(rental.id)).toBeNull();
    }
  });

  it("e-mails only a renter with an address (the account, or the one signed in with the paying wallet) and writes only to a chat still bound", async () => {
    const now = nextMoment();
    const endsAt = at(now, 30 * MINUTE);
    const noAddress = await rentalEnding("day", endsAt, { email: false });
    const noChat = await rentalEnding("day", endsAt, { chat: false });
    const unbound = await rentalEnding("day", endsAt);
    await db.chatBinding.update({
      where: { id: unbound.binding!.id },
      data: { endedAt: now, endReason: "stopped", openUser: null, openRentalId: null },
    });
    // Paid from a wallet before renter_id was filled in: the wallet's account is told.
    const byWallet = await rentalEnding("day", endsAt, { chat: false });
    await db.rental.update({
      where: { id: byWallet.rental.id },
      data: { renterId: null, renterAddress: byWallet.renter.walletAddress },
    });
    // Nobody known at all: claimed, nothing to queue.
    const nobody = await rentalEnding("day", endsAt, { email: false, chat: false });
    await db.rental.update({
      where: { id: nobody.rental.id },
      data: { renterId: null, renterAddress: `0x${randomBytes(20).toString("hex")}` },
    });

    expect(await run(now)).toEqual({ reminded: 5, emails: 3, notices: 1 });
    expect(await emailsOf(noAddress.rental.id)).toHaveLength(0);
    expect(await noticesOf(noAddress.binding!.id)).toHaveLength(1);
    expect(await emailsOf(noChat.rental.id)).toHaveLength(1);
    expect(await emailsOf(unbound.rental.id)).toHaveLength(1);
    expect(await noticesOf(unbound.binding!.id)).toHaveLength(0);
    expect((await emailsOf(byWallet.rental.id)).map((e) => e.to)).toEqual([byWallet.renter.email]);
    expect(await emailsOf(nobody.rental.id)).toHaveLength(0);
    for (const made of [noAddress, noChat, unbound, byWallet, nobody]) expect(await remindedEndOf(made.rental.id)).toEqual(endsAt);
  });
});
