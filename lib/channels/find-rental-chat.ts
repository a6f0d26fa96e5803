import "server-only";
import { db } from "@/lib/db";

/** The chat bound to a rental now, for its page: the platform and who, or null. */
export async function findRentalChat(rentalId: string) {
  return db.chatBinding.findUnique({
    where: { openRentalId: rentalId },
    select: { platform: true, chatLabel: true, createdAt: true },
  });
}
