"use client";

import type { Hex } from "viem";
import { WalletStepper } from "@/app/dashboard/_components/wallet-stepper";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { connectForDispute, describeDisputeError, sendDispute } from "@/lib/disputes/open-dispute";
import { expectRentalChange } from "./rental-live-updates";

export type DisputeStepperProps = {
  /** The rental's bytes32 id on the escrow (random; never derived from the rental code). */
  escrowId: Hex;
  endsAt: string;
  /** The wallet that paid the escrow (only it may dispute), lower-case; null if unknown. */
  renterAddress: string | null;
  chain: EscrowChain;
  autoStart?: boolean;
};

/**
 * Opening a dispute on the wallet stepper: 1. connect the wallet (and switch it to the escrow's
 * chain), 2. send `openDispute(escrowId)` and follow it. The service learns about the dispute from
 * the chain (the event reader, within a minute), never from this page; the page then follows by
 * itself (./rental-live-updates.tsx).
 */
export function DisputeStepper({ escrowId, endsAt, renterAddress, chain, autoStart = false }: DisputeStepperProps) {
  return (
    <WalletStepper<object>
      flow={{
        chain,
        autoStart,
        connect: (config, onStep) => connectForDispute(config, chain, renterAddress, onStep),
        send: (config, account, onStep) => sendDispute(config, chain, { escrowId, endsAt, account }, onStep),
        describeError: (error) => describeDisputeError(error, chain, endsAt),
        reconnectAfter: (error) => error instanceof WalletProblem && /changed accounts/.test(error.message),
        onConfirmed: () => expectRentalChange("dispute"),
      }}
      words={{
        wallet: `the wallet that paid for this rental${renterAddress ? ` (${short(renterAddress)})` : ""}`,
        title: "Open the dispute on chain",
        hint: "Your wallet asks you to approve one transaction (a small network fee, no USDC). The payment is then frozen until an arbiter decides.",
        send: "Open the dispute",
        checking: "Checking with the escrow that the dispute can be opened…",
        confirmed: () => "Dispute opened: the payment is frozen on chain. This page shows the rental as disputed within a minute.",
      }}
    />
  );
}
