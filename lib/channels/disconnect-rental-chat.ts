import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { notifyChatUser } from "@/lib/channels/notify-chat-user";
import { ended } from "@/lib/channels/start-chat";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";

/**
 * "Disconnect chat" on the rental's dashboard page: the renter frees their rental from the chat
 * user it is bound to (a lost phone, a shared account), so `/start` works from another one. The
 * chat is told, best effort. Only the rental's renter may do it (404 otherwise, as for any
 * rental that is not theirs).
 */
export async function disconnectRentalChat(account: RenterAccount, rentalId: string, now: Date = new Date()): Promise<void> {
  const rental = /^[0-9a-f-]{36}$/i.test(rentalId)
    ? await db.rental.findFirst({
        where: { AND: [{ id: rentalId.toLowerCase() }, renterRentalsWhere(account)] },
        select: { id: true },
      })
    : null;
  if (!rental) throw new ApiError(404, "This rental is not in your account.");
  const binding = await db.chatBinding.findUnique({
    where: { openRentalId: rental.id },
    include: { rental: { select: { agent: { select: { name: true } } } } },
  });
  if (!binding) throw new ApiError(409, "No chat is connected to this rental.");
  const { count } = await db.chatBinding.updateMany({
    where: { id: binding.id, endedAt: null },
    data: ended("disconnected", now),
  });
  if (count === 0) return;
  const platform = binding.platform as ChatPlatform;
  const text = `This chat was disconnected from ${binding.rental.agent.name} on the rental's page. Send ${botCommand(platform, "start")} to connect again.`;
  await notifyChatUser({ platform, id: binding.chatUser, chatId: binding.chatId }, text).catch(() => false);
}
