"use client";

import { useRouter } from "next/navigation";
import type { Address } from "viem";
import { connectAs, WalletStepper } from "@/app/dashboard/_components/wallet-stepper";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { shortHex as short } from "@/lib/chain/short-hex";
import { formatUsdc } from "@/lib/format/usdc";
import { describeWithdrawError, sendWithdraw } from "@/lib/payouts/withdraw-credit";

type Props = { chain: EscrowChain; holder: Address; creditMicro: string };

/**
 * Withdrawing one address's credit on the wallet stepper: 1. connect the wallet that holds the
 * credit (switched to the escrow's chain), 2. send withdraw() and follow it to its receipt; the
 * page's figures then refresh.
 */
export function WithdrawStepper({ chain, holder, creditMicro }: Props) {
  const router = useRouter();
  const amount = formatUsdc(BigInt(creditMicro));
  return (
    <WalletStepper<{ amount: bigint }>
      flow={{
        chain,
        connect: connectAs(
          chain,
          holder,
          (other) =>
            `Your wallet is on account ${short(other)}, but the credit belongs to ${short(holder)}. Switch to that account in your wallet, then press “Connect wallet” again.`,
        ),
        send: (config, account, onStep) => sendWithdraw(config, chain, account, onStep),
        describeError: (error) => describeWithdrawError(error, chain),
        onConfirmed: () => router.refresh(),
      }}
      words={{
        wallet: `the wallet ${short(holder)}`,
        title: `Withdraw ${amount}`,
        hint: "Your wallet asks you to approve one transaction (a small network fee); the USDC arrives in the same wallet.",
        send: `Withdraw ${amount}`,
        checking: "Checking the credit with the escrow…",
        confirmed: ({ amount: paid }) => `Withdrawn: ${formatUsdc(paid)} is in your wallet.`,
      }}
    />
  );
}
