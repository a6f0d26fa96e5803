import "server-only";
import { BaseError, ContractFunctionRevertedError, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { db } from "@/lib/db";
import { formatUsdc } from "@/lib/format/usdc";

/**
 * An operator decides a dispute from the command line (`dispute:resolve`): resolveDispute with the
 * arbiter's key, then, once it is CHAIN_CONFIRMATIONS deep, the event reader runs, so the
 * database, the e-mails and the dashboards follow at once. The escrow has the last word (the role,
 * the status, the refund at most the price).
 */
export async function resolveDisputeWithKey(input: { rentalRef: string; refundMicro: bigint; arbiterKey: Hex }) {
  const rental = await db.rental.findUnique({
    where: { ref: input.rentalRef },
    select: { id: true, ref: true, escrowId: true, status: true, priceMicro: true },
  });
  if (!rental) throw new Error(`No rental with reference ${input.rentalRef}.`);
  if (rental.status !== "disputed") throw new Error(`Rental ${rental.ref} is not disputed (it is ${rental.status}).`);
  if (input.refundMicro > rental.priceMicro) {
    throw new Error(`The refund is more than the price: at most ${formatUsdc(rental.priceMicro)} can go back.`);
  }
  const { publicClient, chain, config } = chainClients();
  const wallet = createWalletClient({ chain, transport: http(config.rpcUrl), account: privateKeyToAccount(input.arbiterKey) });
  const { request } = await publicClient
    .simulateContract({
      address: config.escrow,
      abi: escrowAbi,
      functionName: "resolveDispute",
      args: [rental.escrowId as Hex, input.refundMicro],
      account: wallet.account,
    })
    .catch((error: unknown) => {
      const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
      const name = revert instanceof ContractFunctionRevertedError ? revert.data?.errorName : undefined;
      if (name === "AccessControlUnauthorizedAccount")
        throw new Error("ARBITER_PRIVATE_KEY's wallet does not hold ARBITER_ROLE on the escrow.");
      if (name) throw new Error(`The escrow refused the decision (${name}).`);
      throw error;
    });
  const hash = await wallet.writeContract(request);
  // The event reader takes only final blocks: the decision is read once CHAIN_CONFIRMATIONS deep.
  const receipt = await publicClient.waitForTransactionReceipt({ hash, confirmations: config.confirmations });
  if (receipt.status !== "success") throw new Error(`The transaction ${hash} reverted; nothing was decided.`);
  await syncEscrowEvents();
  const after = await db.rental.findUniqueOrThrow({ where: { id: rental.id }, select: { status: true, disputeRefundMicro: true } });
  return {
    rental: rental.ref,
    txHash: hash,
    refund: formatUsdc(input.refundMicro),
    toOwner: formatUsdc(rental.priceMicro - input.refundMicro),
    status: after.status,
  };
}
