import "server-only";
import { MOVE_CHAT_BUTTON } from "@/lib/channels/bot-commands";
import { CHAT_MOVE_TTL_MS, hashChatMoveToken } from "@/lib/channels/chat-move-token";
import { db } from "@/lib/db";
import { plural } from "@/lib/format/plural";
import { ApiError } from "@/lib/http/api-error";

export const MOVE_COMMAND_INVALID =
  `This move command does not work (any more): each works once, for ${plural(CHAT_MOVE_TTL_MS / 60_000, "minute")}. ` +
  `For a new one, press ${MOVE_CHAT_BUTTON} again.`;

/**
 * The rental a move command (`/start mv_…`) is for, while the command is unused and unexpired;
 * otherwise a 401 in words. Found by the token's SHA-256, as it is stored.
 */
export async function findRentalByMoveToken(token: string, now: Date) {
  const row = await db.chatMoveToken.findUnique({
    where: { tokenHash: hashChatMoveToken(token) },
    select: {
      expiresAt: true,
      rental: { select: { id: true, status: true, channel: true, startsAt: true, endsAt: true, agent: { select: { name: true } } } },
    },
  });
  if (!row || row.expiresAt <= now) throw new ApiError(401, MOVE_COMMAND_INVALID);
  return row.rental;
}
