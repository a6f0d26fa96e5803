import "server-only";
import { createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { signUsdcPermit } from "@/lib/chain/usdc-permit-domain";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { confirmRentalExtension } from "@/lib/rentals/extend/confirm-rental-extension";
import { quoteExtension } from "@/lib/rentals/extend/quote-extension";

export type KeyExtension = { rentalId: string; periods: number; durationType?: DurationType; renterKey: Hex };

// An extension paid with a private key instead of a browser wallet (the CLI's rental:extend,
// tests): quote (the live check first) → permit + extendRentalWithPermit in one transaction →
// confirm. The key must be the wallet that paid for the rental: the escrow takes only the renter.
export async function extendWithKey(input: KeyExtension) {
  const { publicClient, chain, config } = chainClients();
  const account = privateKeyToAccount(input.renterKey);
  const wallet = createWalletClient({ chain, transport: http(config.rpcUrl), account });
  const quoted = await quoteExtension(input);
  const { extension, signature } = quoted;
  if (extension.renter.toLowerCase() !== account.address.toLowerCase()) {
    throw new Error(`This rental was paid by ${extension.renter}; extend it with that wallet's key, not ${account.address}.`);
  }
  const deadline = extension.deadline;
  const permit = await signUsdcPermit(publicClient, account, config, {
    spender: config.escrow,
    value: extension.addedPrice + extension.fee,
    deadline,
  });
  const hash = await wallet.writeContract({
    address: config.escrow,
    abi: escrowAbi,
    functionName: "extendRentalWithPermit",
    args: [extension, signature, deadline, permit.v, permit.r, permit.s],
  });
  await publicClient.waitForTransactionReceipt({ hash, confirmations: config.confirmations });
  const confirmed = await confirmRentalExtension(hash);
  return { ...confirmed, quoted };
}
