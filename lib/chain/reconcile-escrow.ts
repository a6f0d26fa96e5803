import "server-only";
import { erc20Abi, type Hex } from "viem";
import { applyEscrowEvent, type EscrowLog } from "@/lib/chain/apply-escrow-event";
import { chainClients } from "@/lib/chain/chain-clients";
import { finalBlockNumber } from "@/lib/chain/final-block";
import { freeNonces } from "@/lib/chain/free-nonces";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { usdcInputValue } from "@/lib/format/usdc";
import type { RentalStatus } from "@/lib/generated/prisma/enums";

// The escrow's Status enum (contracts/RentalEscrow.sol), and the rental status each one means.
const ON_CHAIN = ["pending", "active", "disputed", "completed", "cancelled"] as const;
// Closed rentals are compared for this long after their row last changed: what a reorg or a bug
// could have closed too early (the chain still holding the money) shows up within it.
const CLOSED_WINDOW_MS = 7 * 24 * 3_600_000;
// Escrow records read at once.
const BATCH = 50;
// Every event that names a rental (its id is the first indexed argument).
const RENTAL_EVENTS = ["RentalCreated", "RentalExtended", "DisputeOpened", "DisputeResolved", "RentalReleased", "RentalCancelled"] as const;

export type Difference = { rental: string; escrowId: string; database: RentalStatus; chain: string; fixed?: RentalStatus };

/**
 * `npm run cli -- chain:reconcile [--fix]`: compares every open rental — paid and active or
 * disputed, awaiting payment, or closed in the last 7 days — with the escrow's record of it at the
 * final block, and the money: what the escrow holds for the rentals against what the database
 * holds open, and the operator's nonces against the chain's. With `fix`, each rental that differs
 * is derived again from its own events on chain (its chain-decided fields reset, then every event
 * applied as the event reader would, notices included once) and a finished release claim on it is
 * freed, so the sweep releases it if the chain still holds it.
 */
export async function reconcileEscrow(options: { fix: boolean; now?: Date }) {
  const { publicClient, config, operator } = chainClients();
  const now = options.now ?? new Date();
  const final = await finalBlockNumber();
  const rentals = await db.rental.findMany({
    where: {
      OR: [
        { status: { in: ["active", "disputed"] }, createTxHash: { not: null } },
        { status: "pending" },
        {
          status: { in: ["completed", "cancelled"] },
          createTxHash: { not: null },
          updatedAt: { gte: new Date(now.getTime() - CLOSED_WINDOW_MS) },
        },
      ],
    },
    select: { id: true, ref: true, escrowId: true, status: true, priceMicro: true, feeMicro: true },
    orderBy: { createdAt: "asc" },
  });
  const differences: Difference[] = [];
  let openOnChain = 0n;
  for (let i = 0; i < rentals.length; i += BATCH) {
    const batch = rentals.slice(i, i + BATCH);
    const records = await Promise.all(
      batch.map((r) =>
        publicClient.readContract({
          address: config.escrow,
          abi: escrowAbi,
          functionName: "rentals",
          args: [r.escrowId as Hex],
          blockNumber: final,
        }),
      ),
    );
    for (const [j, [, , , status, , price, fee]] of records.entries()) {
      const rental = batch[j];
      if (status === 1 || status === 2) openOnChain += price + BigInt(fee);
      const chain = ON_CHAIN[status] ?? `unknown status ${status}`;
      if (chain !== rental.status) differences.push({ rental: rental.ref, escrowId: rental.escrowId, database: rental.status, chain });
    }
  }
  if (options.fix) {
    for (const difference of differences) difference.fixed = await deriveAgain(difference.escrowId as Hex, final);
  }

  const open = await db.rental.aggregate({
    where: { status: { in: ["active", "disputed"] }, createTxHash: { not: null } },
    _sum: { priceMicro: true, feeMicro: true },
  });
  const openInDatabase = (open._sum.priceMicro ?? 0n) + (open._sum.feeMicro ?? 0n);
  const [balance, totalOwed] = await Promise.all([
    publicClient.readContract({
      address: config.usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [config.escrow],
      blockNumber: final,
    }),
    publicClient.readContract({ address: config.escrow, abi: escrowAbi, functionName: "totalOwed", blockNumber: final }),
  ]);
  const { gaps, next } = await freeNonces(db);
  const inFlight = await db.chainTransaction.count({ where: { status: { in: ["prepared", "sent"] } } });
  return {
    block: String(final),
    checked: rentals.length,
    differences,
    escrow: {
      balance_usdc: usdcInputValue(balance),
      total_owed_usdc: usdcInputValue(totalOwed),
      // The open rentals checked, as the escrow holds them and as the database does: equal when they agree.
      open_on_chain_usdc: usdcInputValue(openOnChain),
      open_in_database_usdc: usdcInputValue(openInDatabase),
      // Unclaimed payout credits, and payments for rentals the database does not know.
      owed_otherwise_usdc: usdcInputValue(totalOwed - openOnChain),
    },
    nonces: {
      operator: operator.address,
      chain: await publicClient.getTransactionCount({ address: operator.address, blockTag: "pending" }),
      next_recorded: next,
      gaps,
      in_flight: inFlight,
    },
  };
}

// A rental's chain-decided state derived again from its own events up to the final block.
async function deriveAgain(escrowId: Hex, final: bigint): Promise<RentalStatus> {
  const { publicClient, config } = chainClients();
  const rental = await db.rental.findUniqueOrThrow({ where: { escrowId }, include: { releaseTx: { select: { status: true } } } });
  const logs = (
    await Promise.all(
      RENTAL_EVENTS.map((eventName) =>
        publicClient.getContractEvents({
          address: config.escrow,
          abi: escrowAbi,
          eventName,
          args: { id: escrowId },
          fromBlock: env.ESCROW_START_BLOCK,
          toBlock: final,
          strict: true,
        }),
      ),
    )
  )
    .flat()
    .sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
  const claimDone = rental.releaseTx && !["prepared", "sent"].includes(rental.releaseTx.status);
  // Extensions add to the price and fee: back to what the rental was created with, then each
  // RentalExtended adds its part again.
  const created = (logs as EscrowLog[]).find((log) => log.eventName === "RentalCreated");
  const createdAmounts = created?.eventName === "RentalCreated" ? { priceMicro: created.args.price, feeMicro: created.args.fee } : {};
  await db.$transaction([
    db.rental.update({
      where: { id: rental.id },
      data: {
        status: "pending",
        ...createdAmounts,
        createTxHash: null,
        disputeRefundMicro: null,
        settledAt: null,
        settleTxHash: null,
        ...(claimDone ? { releaseTxId: null } : {}),
      },
    }),
    db.dispute.updateMany({
      where: { rentalId: rental.id },
      data: { openedAt: null, openTxHash: null, resolvedAt: null, resolvedBy: null, resolveTxHash: null },
    }),
  ]);
  for (const log of logs) await applyEscrowEvent(log as EscrowLog);
  return (await db.rental.findUniqueOrThrow({ where: { id: rental.id }, select: { status: true } })).status;
}
