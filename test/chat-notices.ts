// The sender's chat half run for the notices of some chat users only, as the send-messages cron
// would send them: the test database is shared, so a test never takes another file's notices.
import { sendChatNotices } from "@/lib/channels/send-chat-notices";
import { db } from "@/lib/db";

/** Sends the queued notices of these chat users (platform user ids) now. */
export async function sendNoticesTo(...chatUsers: string[]): Promise<void> {
  const queued = await db.chatNotice.findMany({ where: { chatUser: { in: chatUsers }, status: "queued" }, select: { id: true } });
  if (queued.length > 0) await sendChatNotices({ only: queued.map((n) => n.id) });
}
