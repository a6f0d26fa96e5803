import "server-only";
import type { Hex } from "viem";
import { applyChainChange, type ChainSource } from "@/lib/chain/apply-chain-change";
import { db } from "@/lib/db";
import { rememberRentalCode } from "@/lib/rentals/authenticate-rental";
import { sendRentalExtended } from "@/lib/webhooks/send-rental-extended";

// The fields of the escrow's RentalExtended event, as the chain recorded them.
export type RentalExtendedEvent = { id: Hex; addedPrice: bigint; addedFee: bigint; previousEndsAt: bigint; endsAt: bigint };

export type ExtensionOutcome = {
  outcome: "extended" | "already-extended" | "not-ours";
  rentalId: string | null;
  /** The owner's rental.extended call, when this call applied the extension (resolves to delivered). */
  notified?: Promise<boolean>;
};

const at = (seconds: bigint) => new Date(Number(seconds) * 1000);

/**
 * Brings a RentalExtended event into the database, exactly once whoever applies it (the extend
 * confirm call, the event reader, the reconciliation): the rental's end moves from previousEndsAt
 * to endsAt and its price and fee grow by what was paid, only while its end is still
 * previousEndsAt (the chain's end only grows, so a second application matches nothing). Journaled
 * with its block like every chain fact, so a reorg undoes it. The one call that applied it marks
 * the quote it redeemed, extends how long the code is remembered and tells the owner's webhook
 * (rental.extended; a failure undoes nothing).
 */
export async function applyRentalExtended(event: RentalExtendedEvent, source: ChainSource): Promise<ExtensionOutcome> {
  const rental = await db.rental.findUnique({ where: { escrowId: event.id.toLowerCase() }, select: { id: true } });
  if (!rental) return { outcome: "not-ours", rentalId: null };
  const rentalId = rental.id;
  const from = at(event.previousEndsAt);
  const endsAt = at(event.endsAt);
  const appliedAt = new Date();
  const changes = await applyChainChange([rentalId], source, async (tx) => {
    const moved = await tx.rental.updateMany({
      where: { id: rentalId, endsAt: from },
      data: { endsAt, priceMicro: { increment: event.addedPrice }, feeMicro: { increment: event.addedFee } },
    });
    if (moved.count === 0) return;
    await tx.rentalExtension.updateMany({
      where: {
        rentalId,
        fromEndsAt: from,
        addedSeconds: Number(event.endsAt - event.previousEndsAt),
        addedPriceMicro: event.addedPrice,
        feeMicro: event.addedFee,
        appliedAt: null,
      },
      data: { appliedAt, txHash: source.txHash.toLowerCase() },
    });
  });
  if (changes.length === 0) return { outcome: "already-extended", rentalId };
  await rememberRentalCode({ id: rentalId, endsAt });
  return { outcome: "extended", rentalId, notified: notifyOwner(rentalId, source.txHash) };
}

/** Never rejects (the event reader does not wait for it): a failure is logged and undoes nothing. */
async function notifyOwner(rentalId: string, txHash: string): Promise<boolean> {
  try {
    return await sendOnce(rentalId, txHash);
  } catch (error) {
    console.warn(
      `[webhooks] rental.extended for an escrow extension in ${txHash} not sent: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

async function sendOnce(rentalId: string, txHash: string): Promise<boolean> {
  const rental = await db.rental.findUnique({
    where: { id: rentalId },
    select: {
      ref: true,
      endsAt: true,
      agent: {
        select: { id: true, name: true, webhookUrlCipher: true, webhookTokenCipher: true, webhookSigningSecretCipher: true },
      },
    },
  });
  if (!rental) return false;
  const attemptedAt = new Date();
  const result = await sendRentalExtended(rental);
  if (!result) return false;
  // For the owner's delivery log, whatever the answer (lib/agents/list-agent-deliveries.ts).
  await db.rentalExtension
    .updateMany({
      where: { rentalId, txHash: txHash.toLowerCase() },
      data: {
        notifyAttemptedAt: attemptedAt,
        notifyStatusCode: result.statusCode,
        notifyError: result.error,
        notifyLatencyMs: result.latencyMs,
        notifiedAt: result.ok ? new Date() : null,
      },
    })
    .catch((error: unknown) => console.warn(`[webhooks] rental.extended for ${txHash} not recorded: ${String(error)}`));
  return result.ok;
}
