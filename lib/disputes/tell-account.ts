import "server-only";
import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";

type Message = { subject: string; text: string; html: string };

/**
 * A dashboard notification and, when the account has an address, an e-mail: each at most once per
 * account, kind and rental (the notifications' unique key, the e-mail's idempotency key), so the
 * event reader may see the same event twice.
 */
export async function tellAccount(
  account: { id: string; email: string | null },
  kind: string,
  rentalId: string,
  message: Message,
  notification: { title: string; body: string },
): Promise<void> {
  await db.notification.createMany({ data: [{ accountId: account.id, kind, rentalId, ...notification }], skipDuplicates: true });
  if (account.email) await sendEmail({ to: account.email, ...message, idempotencyKey: `${kind}:${rentalId}:${account.id}` });
}
