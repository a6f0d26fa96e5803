import "client-only";
// The checkout's wallet flow state: the steps, the flow data the steps share, run/cancel and the
// USDC balance, for the duration and channel the checkout chose. The views around it only render
// what it returns. Flow and on-chain effects: docs/checkout.md.
import { useEffect, useReducer, useRef, useState } from "react";
import { erc20Abi } from "viem";
import { useBalance, useConnection, useReadContract } from "wagmi";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import type { ClaimedRental, Duration } from "@/lib/checkout/checkout-api";
import { forgetPayment, rememberPayment } from "@/lib/checkout/pending-payment";
import { type CheckoutTotals, shortfallMessage } from "@/lib/checkout/price";
import { type FlowData, paymentPlan, runCheckout } from "@/lib/checkout/run-checkout";
import {
  announcement,
  failedStep,
  initialSteps,
  isRunning,
  type StepId,
  stepsFor,
  stepsReducer,
  waitingForWallet,
} from "@/lib/checkout/steps";
import type { CheckoutConfig } from "@/lib/checkout/wagmi-config";

// What the rest of the checkout needs to know: a payment is running, or the choice is fixed
// (running, or a payment was sent).
export type PaymentProgress = { running: boolean; locked: boolean };

export type UseWalletPaymentOptions = {
  agentId: string;
  agentName: string;
  duration: Duration;
  channel: CheckoutChannel;
  totals: CheckoutTotals;
  chain: PublicChainSettings;
  config: CheckoutConfig;
  onProgress: (progress: PaymentProgress) => void;
  onPaid: (rental: ClaimedRental) => void;
  // A payment was cancelled: one sent but not confirmed may now be offered again.
  onCancel: () => void;
};

export type WalletPaymentState = ReturnType<typeof useWalletPayment>;

export function useWalletPayment({
  agentId,
  agentName,
  duration,
  channel,
  totals,
  chain,
  config,
  onProgress,
  onPaid,
  onCancel,
}: UseWalletPaymentOptions) {
  const [steps, dispatch] = useReducer(stepsReducer, initialSteps("permit"));
  const [started, setStarted] = useState(false);
  // From Pay until the run returns (or is cancelled): before its first step shows as pending
  // (the balance read), nothing else would hold the choice.
  const [paying, setPaying] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const flow = useRef<FlowData>({});
  const runId = useRef(0);

  const connection = useConnection();
  const address = connection.address;
  const onChain = connection.chainId === chain.chainId;

  const balance = useReadContract({
    address: chain.usdc,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: address ? [address] : undefined,
    chainId: chain.chainId,
    query: { enabled: Boolean(address), refetchInterval: 15_000 },
  });
  const gas = useBalance({ address, chainId: chain.chainId, query: { enabled: Boolean(address) } });
  const short = balance.data !== undefined ? shortfallMessage(balance.data, totals.total) : null;

  const running = isRunning(steps);
  const walletOpen = waitingForWallet(steps);
  const failed = failedStep(steps);
  const order = stepsFor(steps.plan);
  const status = announcement(steps);
  // Duration and channel are fixed while a payment runs or once one was sent.
  const locked = running || paying || Boolean(flow.current.payHash);

  useEffect(() => onProgress({ running, locked }), [running, locked, onProgress]);

  // Show the right plan before paying: permit when the token has one for this wallet.
  useEffect(() => {
    if (!address || !onChain || started) return;
    let live = true;
    paymentPlan({ config, chain }, flow.current, address)
      .then((plan) => {
        if (live) dispatch({ type: "plan", plan });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [address, onChain, started, config, chain]);

  // A wallet switch mid-checkout invalidates the quote (it names the renter): start over.
  useEffect(() => {
    if (flow.current.renter && address && flow.current.renter !== address) {
      runId.current++;
      flow.current = {};
      setStarted(false);
      dispatch({ type: "reset" });
      setNotice("You switched wallets: the checkout started over for the new wallet.");
    }
  }, [address]);

  // A new duration or channel needs a new quote (the choice is locked while a payment runs).
  const chosen = useRef({ duration, channel });
  useEffect(() => {
    if (chosen.current.duration === duration && chosen.current.channel === channel) return;
    chosen.current = { duration, channel };
    if (started && !running) {
      runId.current++;
      flow.current = {};
      setStarted(false);
      dispatch({ type: "reset" });
    }
  }, [duration, channel, started, running]);

  async function run(from: StepId) {
    const me = ++runId.current;
    const live = () => runId.current === me;
    setNotice(null);
    const renter = connection.address;
    if (!renter) return;
    if (connection.chainId !== chain.chainId) {
      setNotice(`Switch your wallet to ${chain.chainName} first.`);
      return;
    }
    setStarted(true);
    setPaying(true);
    const outcome = await runCheckout(
      { config, chain },
      flow.current,
      { agentId, agentName, duration, channel, renter, total: totals.total, from },
      {
        dispatch,
        live,
        paymentSent: (txHash, claimSecret) => {
          runId.current = me; // a payment sent is followed to the end, even after Cancel
          rememberPayment({ agentId, txHash, claimSecret, channel, at: Date.now() });
        },
      },
    ).finally(() => {
      if (live()) setPaying(false);
    });
    if (outcome.kind === "refused") {
      if (live()) {
        setNotice(outcome.notice);
        setStarted(false);
      }
      void balance.refetch();
    } else if (outcome.kind === "done") {
      forgetPayment(outcome.result.txHash);
      if (flow.current.payHash) forgetPayment(flow.current.payHash);
      void balance.refetch();
      onPaid(outcome.result);
    }
  }

  // Cancel: stop waiting for the open wallet prompt or abandon after a failure. A payment already
  // sent is still followed (see run).
  function cancel() {
    runId.current++;
    setPaying(false);
    const open = order.find((id) => steps.steps[id].status === "wallet");
    if (open) {
      dispatch({
        type: "failed",
        step: open,
        error: "Cancelled. If your wallet still shows the request, reject it there.",
        rejected: true,
      });
      return;
    }
    flow.current = { permitDomain: flow.current.permitDomain, renter: flow.current.renter };
    setStarted(false);
    dispatch({ type: "reset" });
    onCancel();
  }

  return {
    agentName,
    totals,
    connection,
    onChain,
    balance,
    gas,
    short,
    steps,
    order,
    status,
    started,
    running,
    walletOpen,
    failed,
    notice,
    run,
    cancel,
  };
}
