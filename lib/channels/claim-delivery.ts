import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Claims one platform delivery (Telegram update_id, Discord interaction id, Slack event_id or a
 * command's trigger_id) before the platform gets its answer: true the first time, false for a
 * retry or a replay of a delivery already taken, which must then be acknowledged and dropped so
 * the owner never gets it twice.
 */
export async function claimDelivery(platform: ChatPlatform, key: string): Promise<boolean> {
  try {
    await db.chatDelivery.create({ data: { platform, key } });
    return true;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return false;
    throw error;
  }
}
