import "server-only";
import { db } from "@/lib/db";
import { queueEmails } from "@/lib/email/send-email";

type Message = { subject: string; text: string; html: string };

export type Telling = {
  account: { id: string; email: string | null };
  kind: string;
  rentalId: string;
  message: Message;
  notification: { title: string; body: string };
};

/**
 * A dashboard notification and, when the account has an address, an e-mail queued for the sender:
 * each at most once per account, kind and rental (the notifications' unique key, the e-mail's
 * idempotency key), so the event reader may see the same event twice.
 */
export async function tellAccount(
  account: Telling["account"],
  kind: string,
  rentalId: string,
  message: Message,
  notification: Telling["notification"],
): Promise<void> {
  await tellAccounts([{ account, kind, rentalId, message, notification }]);
}

/**
 * tellAccount for many at once, in two statements (the release sweep's hundreds of rentals), plain
 * SQL over arrays as queueEmails is (Prisma's createMany is far slower at this size).
 */
export async function tellAccounts(tellings: Telling[]): Promise<void> {
  if (tellings.length === 0) return;
  await db.$executeRaw`
    INSERT INTO notifications (id, account_id, kind, rental_id, title, body)
    SELECT gen_random_uuid(), n.account_id, n.kind, n.rental_id, n.title, n.body
    FROM unnest(${tellings.map((t) => t.account.id)}::uuid[], ${tellings.map((t) => t.kind)}::text[],
                ${tellings.map((t) => t.rentalId)}::uuid[], ${tellings.map((t) => t.notification.title)}::text[],
                ${tellings.map((t) => t.notification.body)}::text[]) AS n(account_id, kind, rental_id, title, body)
    ON CONFLICT (account_id, kind, rental_id) DO NOTHING`;
  await queueEmails(
    tellings.flatMap(({ account, kind, rentalId, message }) =>
      account.email ? [{ to: account.email, ...message, idempotencyKey: `${kind}:${rentalId}:${account.id}` }] : [],
    ),
  );
}
