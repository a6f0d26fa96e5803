// Disputes as the event reader leaves them in the database, without a chain: a paid rental of an
// agent, opened on chain at a given time and, when asked, decided. For the tests of the dispute
// lists, the owner's answer and the arbiter console.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { makeAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

const txHash = () => `0x${randomBytes(32).toString("hex")}`;

type Options = {
  agent?: Awaited<ReturnType<typeof makeAgent>>;
  openedAt?: Date;
  details?: string | null;
  /** The decision as DisputeResolved carries it: when, the refund, and who decided. */
  decided?: { at: Date; refundMicro: bigint; by?: "arbiter" | "owner" | "expired" };
};

export async function disputedRental(options: Options = {}) {
  const renter = await makeRenterAccount({ email: true, wallet: true });
  const agent = options.agent ?? (await makeAgent());
  const { id, priceMicro } = await rentalOf(agent, renter);
  const { decided } = options;
  const status = !decided ? "disputed" : decided.refundMicro >= priceMicro ? "cancelled" : "completed";
  const rental = await db.rental.update({
    where: { id },
    data: { renterAddress: renter.walletAddress, status, disputeRefundMicro: decided?.refundMicro ?? null },
  });
  const dispute = await db.dispute.create({
    data: {
      rentalId: id,
      reason: "not_responding",
      details: options.details === undefined ? "It stopped answering." : options.details,
      openedAt: options.openedAt ?? new Date(),
      openTxHash: txHash(),
      ...(decided && { resolvedAt: decided.at, resolvedBy: decided.by ?? "arbiter", resolveTxHash: txHash() }),
    },
  });
  return { renter, agent, rental, dispute };
}
