import "server-only";
import { chatEndingNotice } from "@/lib/channels/chat-ending-notice";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { type ChatNoticeMessage, queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { db } from "@/lib/db";
import { type EmailTransport, emailTransportFromEnv } from "@/lib/email/email-transport";
import { type EmailMessage, queueEmails } from "@/lib/email/send-email";
import { rentalEndingEmail } from "@/lib/email/templates/rental-ending";
import { REMINDER_LEAD_MS } from "@/lib/rentals/reminder-lead";

const LONGEST_LEAD_MS = Math.max(...Object.values(REMINDER_LEAD_MS));

// Rentals claimed per transaction, and transactions per run: 2,000 reminders a run, the rest the
// next minute (a reminder a minute late still comes well before the end).
const BATCH = 200;
const MAX_BATCHES = 10;

// `reminded`: rentals whose end was told (claimed); `emails` and `notices`: what was queued for the
// sender (a renter without an address gets no e-mail, a rental without a bound chat no notice).
export type RemindedRentals = { reminded: number; emails: number; notices: number };

/**
 * The reminder cron (every minute): each running, paid rental that ends within its lead time
 * (REMINDER_LEAD_MS) and whose current end was not told yet is claimed — `reminded_ends_at` set to
 * its `ends_at` — and, in the same transaction, its renter's e-mail (when the account has an
 * address) and its bound chat's notice are queued for the sender, each with the link to extend.
 * The claim takes rows with FOR UPDATE SKIP LOCKED and only while `reminded_ends_at` differs from
 * `ends_at`, so overlapping runs, on any number of servers, tell each end once; an extension moves
 * `ends_at`, and the new end is told again when its own lead time comes. Disputed, ended and
 * pending rentals are never told, nor free trials (`rentals.trial`: nothing to extend).
 */
export async function remindEndingRentals(
  now: Date = new Date(),
  transport: EmailTransport = emailTransportFromEnv(),
): Promise<RemindedRentals> {
  const result: RemindedRentals = { reminded: 0, emails: 0, notices: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const claimed = await db.$transaction(async (tx) => {
      // The claim, and what the messages say, in one statement. The renter's address: their
      // account's, else (a rental paid from a wallet before its renter_id was filled in) that of
      // the account signed in with the paying wallet.
      const rentals = await tx.$queryRaw<{ id: string; endsAt: Date; agentName: string; email: string | null }[]>`
        WITH claimed AS (
          UPDATE rentals r SET reminded_ends_at = r.ends_at
          FROM (
            SELECT id FROM rentals
            WHERE status = 'active' AND NOT trial
              AND starts_at <= ${now} AND ends_at > ${now}
              AND ends_at <= ${new Date(now.getTime() + LONGEST_LEAD_MS)}
              AND ends_at <= ${now}::timestamptz + interval '1 millisecond' * (CASE duration_type
                WHEN 'hour' THEN ${REMINDER_LEAD_MS.hour}::int
                WHEN 'day' THEN ${REMINDER_LEAD_MS.day}::int
                ELSE ${REMINDER_LEAD_MS.month}::int END)
              AND reminded_ends_at IS DISTINCT FROM ends_at
            ORDER BY ends_at
            LIMIT ${BATCH}
            FOR UPDATE SKIP LOCKED
          ) due
          WHERE r.id = due.id
          RETURNING r.id, r.ends_at, r.agent_id, r.renter_id, r.renter_address
        )
        SELECT c.id, c.ends_at AS "endsAt", a.name AS "agentName", COALESCE(renter.email, payer.email) AS email
        FROM claimed c
        JOIN agents a ON a.id = c.agent_id
        LEFT JOIN accounts renter ON renter.id = c.renter_id
        LEFT JOIN accounts payer ON payer.wallet_address = c.renter_address`;
      if (rentals.length === 0) return { reminded: 0, emails: 0, notices: 0 };
      const bindings = await tx.chatBinding.findMany({
        where: { rentalId: { in: rentals.map((r) => r.id) }, endedAt: null },
        select: { id: true, rentalId: true, platform: true, chatUser: true, chatId: true },
      });
      const emails: EmailMessage[] = [];
      const notices: ChatNoticeMessage[] = [];
      for (const { id, endsAt, agentName, email } of rentals) {
        const ending = { rental: { id, endsAt }, agent: { name: agentName } };
        // Keyed by the end told: an extension's new end is a new reminder.
        const end = endsAt.toISOString();
        if (email) emails.push({ to: email, ...rentalEndingEmail(ending, now), idempotencyKey: `rental-ending:${id}:${end}` });
        for (const binding of bindings.filter((b) => b.rentalId === id)) {
          notices.push({
            target: { platform: binding.platform as ChatPlatform, id: binding.chatUser, chatId: binding.chatId },
            text: chatEndingNotice(ending, now),
            idempotencyKey: `rental-ending:${binding.id}:${end}`,
          });
        }
      }
      return {
        reminded: rentals.length,
        emails: await queueEmails(emails, transport, now, tx),
        notices: await queueChatNotices(notices, tx, now),
      };
    });
    result.reminded += claimed.reminded;
    result.emails += claimed.emails;
    result.notices += claimed.notices;
    if (claimed.reminded < BATCH) break;
  }
  return result;
}
