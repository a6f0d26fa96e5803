import "server-only";
import { MOVE_CHAT_BUTTON } from "@/lib/channels/bot-commands";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { endedBinding } from "@/lib/channels/ended-binding";
import { queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";

/**
 * "Disconnect chat" on the rental's dashboard page: the renter takes their rental back from the
 * chat account it is bound to (a lost phone, a shared account). No account holds it afterwards,
 * not even that one: its chat history shows the code, so only a move command from the rental's
 * page connects a chat again. The chat is told (queued for the sender in the same transaction). Only the rental's renter may do it
 * (404 otherwise, as for any rental that is not theirs).
 */
export async function disconnectRentalChat(account: RenterAccount, rentalId: string, now: Date = new Date()): Promise<void> {
  const rental = /^[0-9a-f-]{36}$/i.test(rentalId)
    ? await db.rental.findFirst({
        where: { AND: [{ id: rentalId.toLowerCase() }, renterRentalsWhere(account)] },
        select: { id: true },
      })
    : null;
  if (!rental) throw new ApiError(404, "This rental is not in your account.");
  // The rental's row first (as a start or a move of it does), so a start cannot slip in between.
  await db.$transaction(async (tx) => {
    await tx.rental.update({ where: { id: rental.id }, data: { chatHolder: null } });
    const open = await tx.chatBinding.findUnique({
      where: { openRentalId: rental.id },
      include: { rental: { select: { agent: { select: { name: true } } } } },
    });
    if (!open) throw new ApiError(409, "No chat is connected to this rental.");
    await tx.chatBinding.update({ where: { id: open.id }, data: endedBinding("disconnected", now) });
    const platform = open.platform as ChatPlatform;
    const text = `This chat was disconnected from ${open.rental.agent.name} on the rental's page. To connect a chat again, press ${MOVE_CHAT_BUTTON}.`;
    await queueChatNotices(
      [{ target: { platform, id: open.chatUser, chatId: open.chatId }, text, idempotencyKey: `chat-disconnected:${open.id}` }],
      tx,
      now,
    );
  });
}
