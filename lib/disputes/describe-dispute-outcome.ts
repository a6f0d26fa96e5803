import { formatUsdc } from "@/lib/format/usdc";

export type DisputeOutcome = {
  /** The part of the price returned to the renter (DisputeResolved's refund). */
  refundMicro: bigint;
  priceMicro: bigint;
  feeMicro: bigint;
  /** Who decided: the arbiter, the owner (accepted), or nobody in time (expired). */
  resolvedBy: string | null;
  /** The rental had ended when it was decided (a rejection then releases at once). */
  ended: boolean;
};

export type OutcomeKind = "full" | "partial" | "rejected";

export function outcomeKind({ refundMicro, priceMicro }: Pick<DisputeOutcome, "refundMicro" | "priceMicro">): OutcomeKind {
  if (refundMicro >= priceMicro) return "full";
  return refundMicro > 0n ? "partial" : "rejected";
}

function decidedBy(resolvedBy: string | null): string {
  if (resolvedBy === "owner") return "The owner accepted the dispute";
  if (resolvedBy === "expired") return "Nobody decided the dispute within 14 days, so it was settled";
  return "The arbiter decided the dispute";
}

/**
 * How a decided dispute ended, in one sentence for each side: the same words in the e-mails, the
 * dashboard notifications, the chat message and the rental pages; `arbiter` tells it of both sides,
 * for the arbiter console's history.
 */
export function describeDisputeOutcome(o: DisputeOutcome): { title: string; renter: string; owner: string; arbiter: string } {
  const who = decidedBy(o.resolvedBy);
  switch (outcomeKind(o)) {
    case "full":
      return {
        title: "Dispute decided: full refund",
        renter: `${who} with a full refund: ${formatUsdc(o.priceMicro + o.feeMicro)} (the price and the fee) went back to your wallet, and the rental is cancelled.`,
        owner: `${who} with a full refund to the renter: the rental is cancelled and nothing is paid out for it.`,
        arbiter: `${who} with a full refund: ${formatUsdc(o.priceMicro + o.feeMicro)} (the price and the fee) went back to the renter, and the rental is cancelled.`,
      };
    case "partial":
      return {
        title: "Dispute decided: partial refund",
        renter: `${who} with a partial refund: ${formatUsdc(o.refundMicro)} of the ${formatUsdc(o.priceMicro)} price went back to your wallet. The rental is complete.`,
        owner: `${who} with a partial refund: ${formatUsdc(o.refundMicro)} went back to the renter and ${formatUsdc(o.priceMicro - o.refundMicro)} was paid to you. The rental is complete.`,
        arbiter: `${who} with a partial refund: ${formatUsdc(o.refundMicro)} of the ${formatUsdc(o.priceMicro)} price went back to the renter and ${formatUsdc(o.priceMicro - o.refundMicro)} was paid to the owner.`,
      };
    case "rejected":
      return o.ended
        ? {
            title: "Dispute decided: no refund",
            renter: `${who} without a refund: the ${formatUsdc(o.priceMicro)} price was released to the owner.`,
            owner: `${who} without a refund: the ${formatUsdc(o.priceMicro)} price was released to you.`,
            arbiter: `${who} without a refund: the ${formatUsdc(o.priceMicro)} price was released to the owner.`,
          }
        : {
            title: "Dispute decided: no refund",
            renter: `${who} without a refund: the rental runs on until it ends, and the agent answers its code again. The owner is paid when it ends.`,
            owner: `${who} without a refund: the rental runs on, and the ${formatUsdc(o.priceMicro)} price is released to you when it ends.`,
            arbiter: `${who} without a refund before the rental ended: it ran on, and the ${formatUsdc(o.priceMicro)} price goes to the owner at its end.`,
          };
  }
}
