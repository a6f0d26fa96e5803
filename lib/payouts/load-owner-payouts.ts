import "server-only";
import { type Address, getAddress } from "viem";
import { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { usdcToMicro } from "@/lib/money/usdc";

export type CreditLine = { address: Address; micro: bigint };

export type WithdrawableCredit =
  | { kind: "ok"; lines: CreditLine[]; totalMicro: bigint; escrow: Address; chainId: number }
  | { kind: "no-wallet" }
  | { kind: "not-configured"; message: string }
  | { kind: "unavailable"; message: string };

export type OwnerPayouts = {
  /** Completed rentals' prices: paid out (or credited) to the owner. */
  releasedMicro: bigint;
  /** Active and disputed rentals' prices: locked in the escrow until the rental ends or the dispute is resolved. */
  inEscrowMicro: bigint;
  /** Settled answers sold per message: their prices, credited in the escrow to the payout address they were sold to. */
  messageEarnedMicro: bigint;
  credit: WithdrawableCredit;
};

// loadOwnerStats reports USDC numbers; they came from exact micro amounts (≤ 15 significant
// digits), so the conversion back is exact too.
const toMicro = (usdc: number) => usdcToMicro(usdc) ?? 0n;

/**
 * What the owner has been paid, what is still in escrow, and what the escrow holds for them to
 * withdraw: payouts a transfer could not push (for instance to a blacklisted address) are kept as
 * `credits(address)` in the contract, and so is the price of every answer sold per message once it
 * is settled. The addresses read are the account's wallet, every payout address its rentals were
 * quoted to (the wallet at quote time) and every one its answers were sold to (the wallet at sale).
 */
export async function loadOwnerPayouts(account: { id: string; walletAddress: string | null }): Promise<OwnerPayouts> {
  const [stats, payoutRows, messageRows] = await Promise.all([
    loadOwnerStats(account.id),
    db.rental.findMany({
      where: { agent: { ownerId: account.id }, payoutAddress: { not: null } },
      distinct: ["payoutAddress"],
      select: { payoutAddress: true },
    }),
    // One pass over the owner's answers (message_payments(agent_id, …)): every address they were
    // sold to, whatever their status (one being settled now is credited there in a moment), and
    // what the settled ones earned.
    db.$queryRaw<{ addresses: string[] | null; earned: bigint }[]>`
      SELECT array_agg(DISTINCT p.payout_address) AS addresses,
             coalesce(sum(p.price_micro_usdc) FILTER (WHERE p.status = 'settled'), 0)::bigint AS earned
        FROM message_payments p JOIN agents a ON a.id = p.agent_id
       WHERE a.owner_id = ${account.id}::uuid`,
  ]);
  const [{ addresses: messagePayoutAddresses, earned: messageEarnedMicro }] = messageRows;
  const addresses = new Set<string>();
  if (account.walletAddress) addresses.add(account.walletAddress.toLowerCase());
  for (const row of payoutRows) if (row.payoutAddress) addresses.add(row.payoutAddress.toLowerCase());
  for (const address of messagePayoutAddresses ?? []) addresses.add(address.toLowerCase());
  return {
    releasedMicro: toMicro(stats.total.revenue.released),
    inEscrowMicro: toMicro(stats.total.revenue.inEscrow),
    messageEarnedMicro,
    credit: await readCredits([...addresses].map((a) => getAddress(a))),
  };
}

async function readCredits(addresses: Address[]): Promise<WithdrawableCredit> {
  if (addresses.length === 0) return { kind: "no-wallet" };
  let clients: ReturnType<typeof chainClients>;
  try {
    clients = chainClients();
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return { kind: "not-configured", message: error.message };
    throw error;
  }
  try {
    const amounts = await Promise.all(
      addresses.map((address) =>
        clients.publicClient.readContract({
          address: clients.config.escrow,
          abi: escrowAbi,
          functionName: "credits",
          args: [address],
        }),
      ),
    );
    const lines = addresses.map((address, i) => ({ address, micro: amounts[i] as bigint }));
    return {
      kind: "ok",
      lines,
      totalMicro: lines.reduce((sum, line) => sum + line.micro, 0n),
      escrow: clients.config.escrow,
      chainId: clients.config.chainId,
    };
  } catch (error) {
    console.error("reading escrow credits failed", error);
    return {
      kind: "unavailable",
      message: "The chain could not be reached to read your withdrawable credit; try again shortly.",
    };
  }
}
