import "server-only";
import { MOVE_CHAT_BUTTON } from "@/lib/channels/bot-commands";
import { channelName } from "@/lib/channels/channel-name";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";
import { endedBinding } from "@/lib/channels/ended-binding";
import { openUserKey } from "@/lib/channels/find-open-binding";
import { MOVE_COMMAND_INVALID } from "@/lib/channels/find-rental-by-move-token";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";

/** The chat a rental was moved away from, to tell once the move is committed. */
export type MovedFrom = { platform: ChatPlatform; id: string; chatId: string | null };

/**
 * In the transaction that binds `user` to the rental: makes the rental's chat this chat account's,
 * or refuses in words (an ApiError, which rolls the transaction back). With the code alone
 * (`moveTokenHash` null) only the rental's own chat account may, or any account before the
 * rental's first binding: that is how a renter starts after checkout. With the renter's move
 * token (used up here: once, unexpired) any account may; the binding of the account that held the
 * rental ends ("moved"). The rental's row is locked first, so starts, moves and disconnects of one
 * rental happen one after another. Returns the chat the rental was moved from, or null.
 */
export async function claimRentalChat(
  tx: Prisma.TransactionClient,
  rentalId: string,
  user: ChatUser,
  moveTokenHash: string | null,
  now: Date,
): Promise<MovedFrom | null> {
  const key = openUserKey(user);
  const [{ holder }] = await tx.$queryRaw<{ holder: string | null }[]>`
    SELECT chat_holder AS "holder" FROM rentals WHERE id = ${rentalId}::uuid FOR UPDATE`;
  if (moveTokenHash) {
    const { count } = await tx.chatMoveToken.deleteMany({ where: { rentalId, tokenHash: moveTokenHash, expiresAt: { gt: now } } });
    if (count === 0) throw new ApiError(401, MOVE_COMMAND_INVALID); // used by a start at the same moment
  } else if (holder !== key) {
    // No holder: never connected (free for the code), or disconnected by the renter (not).
    if (holder !== null) throw new ApiError(409, heldByAnother(user.platform));
    if (await tx.chatBinding.findFirst({ where: { rentalId }, select: { id: true } })) throw new ApiError(409, disconnected(user.platform));
  }
  if (holder === key) return null;

  await tx.rental.update({ where: { id: rentalId }, data: { chatHolder: key } });
  const open = await tx.chatBinding.findUnique({ where: { openRentalId: rentalId }, select: { id: true, chatId: true } });
  if (open) await tx.chatBinding.update({ where: { id: open.id }, data: endedBinding("moved", now) });
  if (holder === null) return null;
  // The holder's key is "<platform>:<chat user>" (a Slack user is "<team>:<user>" itself).
  const platform = holder.slice(0, holder.indexOf(":")) as ChatPlatform;
  const id = holder.slice(platform.length + 1);
  const last = open ?? (await tx.chatBinding.findFirst({ where: { rentalId, platform, chatUser: id }, orderBy: { createdAt: "desc" } }));
  return { platform, id, chatId: last?.chatId ?? null };
}

function heldByAnother(platform: ChatPlatform): string {
  return (
    `This rental is held by another ${channelName(platform)} account (the last one connected to it), and its code alone cannot move it. ` +
    `To move it here, press ${MOVE_CHAT_BUTTON} and send the command it gives you from this account.`
  );
}

function disconnected(platform: ChatPlatform): string {
  return (
    `This rental's chat was disconnected on the rental's page, so its code alone cannot connect a ${channelName(platform)} account again. ` +
    `To connect this one, press ${MOVE_CHAT_BUTTON} and send the command it gives you here.`
  );
}
