import "server-only";
import { hashAuthToken, isWellFormedAuthToken } from "@/lib/auth/auth-token";
import { CHAT_MOVE_TTL_MS, newChatMoveToken } from "@/lib/channels/chat-move-token";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";

/**
 * Who consents to the move: the signed-in renter (the rental's dashboard page), or the browser
 * that paid for it (the checkout page, with the quote's claim secret). Never the rental code:
 * whoever else holds the code must not be able to move the renter's chat.
 */
export type ChatMoveConsent = { account: RenterAccount } | { claimSecret: string };

export type ChatMove = { platform: ChatPlatform; token: string; expiresAt: Date };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * "Move to another chat account": a one-time move command for the rental's bot, `/start <token>`,
 * which moves the rental to whichever chat account sends it before it expires (CHAT_MOVE_TTL_MS). A new one replaces
 * the rental's last; only its SHA-256 is stored.
 */
export async function createChatMove(rentalId: string, consent: ChatMoveConsent, now: Date = new Date()): Promise<ChatMove> {
  const rental = await findConsentedRental(rentalId, consent);
  // (A2A is never a rental's channel, only a call's: it is not sold at checkout.)
  if (rental.channel === "API" || rental.channel === "A2A") {
    throw new ApiError(409, "This rental was bought for the API: it has no chat to move.");
  }
  const unusable = rentalUnusableReason(rental, now);
  if (unusable) throw new ApiError(409, unusable);
  const { token, hash } = newChatMoveToken();
  const expiresAt = new Date(now.getTime() + CHAT_MOVE_TTL_MS);
  await db.chatMoveToken.upsert({
    where: { rentalId: rental.id },
    create: { rentalId: rental.id, tokenHash: hash, expiresAt },
    update: { tokenHash: hash, expiresAt },
  });
  return { platform: rental.channel, token, expiresAt };
}

async function findConsentedRental(rentalId: string, consent: ChatMoveConsent) {
  const select = { id: true, channel: true, status: true, startsAt: true, endsAt: true, claimSecretHash: true } as const;
  const id = UUID.test(rentalId) ? rentalId.toLowerCase() : null;
  if ("account" in consent) {
    const rental = id ? await db.rental.findFirst({ where: { AND: [{ id }, renterRentalsWhere(consent.account)] }, select }) : null;
    if (!rental) throw new ApiError(404, "This rental is not in your account.");
    return rental;
  }
  const rental = id ? await db.rental.findUnique({ where: { id }, select }) : null;
  const paid =
    rental?.claimSecretHash &&
    isWellFormedAuthToken(consent.claimSecret) &&
    constantTimeEqual(hashAuthToken(consent.claimSecret), rental.claimSecretHash);
  if (!rental || !paid) {
    throw new ApiError(
      403,
      'This browser cannot show that it paid for this rental. Sign in with the wallet that paid and press "Move to another chat account" on the rental\'s page under My rentals.',
    );
  }
  return rental;
}
