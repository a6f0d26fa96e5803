import "server-only";
import { db } from "@/lib/db";
import type { Channel } from "@/lib/generated/prisma/enums";

export type RentalChat = {
  /** The chat bound to the rental now: the platform and who, or null. */
  bound: { platform: Channel; chatLabel: string; createdAt: Date } | null;
  /**
   * Whom the code alone connects: any account before the first binding, then only the account
   * the rental belongs to ("holder"), and nobody once the renter disconnected it on the page.
   */
  codeConnects: "any" | "holder" | "nobody";
};

/** The rental's chat, for its page (lib/channels/claim-rental-chat.ts keeps the same rule). */
export async function findRentalChat(rentalId: string): Promise<RentalChat> {
  const [rental, bound, anyBinding] = await Promise.all([
    db.rental.findUnique({ where: { id: rentalId }, select: { chatHolder: true } }),
    db.chatBinding.findUnique({ where: { openRentalId: rentalId }, select: { platform: true, chatLabel: true, createdAt: true } }),
    db.chatBinding.findFirst({ where: { rentalId }, select: { id: true } }),
  ]);
  const codeConnects = rental?.chatHolder ? "holder" : anyBinding ? "nobody" : "any";
  return { bound, codeConnects };
}
