"use client";

import type { Hex } from "viem";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { type Decision, describeDecisionError, sendDecision } from "@/lib/disputes/decide-dispute";
import { connectAs, WalletStepper } from "./wallet-stepper";

export type DecisionStepperProps = {
  /** The rental's bytes32 id on the escrow. */
  escrowId: Hex;
  decision: Decision;
  /** The account the decision needs (the listing's payout wallet, or the signed-in arbiter). */
  wallet: { address: string; who: string };
  /** What step 2 sends, in words ("Refund 1.50 USDC to the renter"). */
  action: string;
  chain: EscrowChain;
};

/**
 * A dispute decision on the wallet stepper: 1. connect the wallet the decision needs, 2. send it
 * (acceptDispute or resolveDispute) and follow it to its receipt. It connects as soon as it
 * appears (the person pressed a decision's button to get here). The service learns the outcome
 * from the chain (the event reader), never from this page.
 */
export function DecisionStepper({ escrowId, decision, wallet, action, chain }: DecisionStepperProps) {
  return (
    <WalletStepper<object>
      flow={{
        chain,
        autoStart: true,
        connect: connectAs(
          chain,
          wallet.address,
          (a) =>
            `Your wallet is on account ${short(a)}; this needs ${wallet.who} (${short(wallet.address)}). Switch to it, then press “Connect wallet” again.`,
        ),
        send: (config, account, onStep) => sendDecision(config, chain, { escrowId, decision, account }, onStep),
        describeError: (error) => describeDecisionError(error, chain),
        reconnectAfter: (error) => error instanceof WalletProblem,
      }}
      words={{
        wallet: `${wallet.who} (${short(wallet.address)})`,
        title: action,
        hint: "Your wallet asks you to approve one transaction (a small network fee). The escrow pays out at once.",
        send: "Send the decision",
        checking: "Checking with the escrow that the decision can be made…",
        confirmed: () => "Decided on chain: the escrow has paid out. The dashboards show the outcome within a minute.",
        reload: "Reload to see the outcome",
      }}
    />
  );
}
