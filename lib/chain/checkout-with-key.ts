import "server-only";
import { createWalletClient, erc20Abi, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { signUsdcPermit } from "@/lib/chain/usdc-permit-domain";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";

export type KeyCheckout = {
  agentId: string;
  durationType: DurationType;
  channel: CheckoutChannel;
  renterKey: Hex;
  permit?: boolean;
};

// The whole checkout done with a private key instead of a browser wallet (operator CLI, the
// demo of `npm run dev`, tests): quote → permit (one transaction) or approve → createRental →
// confirm. It runs the same services the web checkout calls: the quote checks the agent's webhook
// live first and refuses (ApiError 409) when it does not answer; the result carries that check.
export async function checkoutWithKey(input: KeyCheckout) {
  const { publicClient, chain, config } = chainClients();
  const account = privateKeyToAccount(input.renterKey);
  const wallet = createWalletClient({ chain, transport: http(config.rpcUrl), account });
  const { quote, signature, claimSecret, probe } = await quoteRental({ ...input, renter: account.address });
  const total = quote.price + quote.fee;

  let hash: Hex;
  if (input.permit ?? true) {
    const deadline = quote.deadline;
    const permit = await signUsdcPermit(publicClient, account, config, { spender: config.escrow, value: total, deadline });
    hash = await wallet.writeContract({
      address: config.escrow,
      abi: escrowAbi,
      functionName: "createRentalWithPermit",
      args: [quote, signature, deadline, permit.v, permit.r, permit.s],
    });
  } else {
    const approval = await wallet.writeContract({
      address: config.usdc,
      abi: erc20Abi,
      functionName: "approve",
      args: [config.escrow, total],
    });
    await publicClient.waitForTransactionReceipt({ hash: approval });
    hash = await wallet.writeContract({
      address: config.escrow,
      abi: escrowAbi,
      functionName: "createRental",
      args: [quote, signature],
    });
  }
  await publicClient.waitForTransactionReceipt({ hash, confirmations: config.confirmations });
  const confirmed = await confirmRentalPayment(hash, { claimSecret });
  // The claim secret is our own, so the code always comes back; this narrows the type.
  if (!("code" in confirmed)) throw new Error(`Payment ${hash} was confirmed but its claim secret was not recognised.`);
  return { ...confirmed, probe };
}
