import "client-only";
// The checkout's flow state: the chosen duration and channel, the steps, the flow data the steps
// share, run/cancel, the unfinished-payment recovery and the USDC balance. The views around it
// only render what it returns. Flow and on-chain effects: docs/checkout.md.
import { useEffect, useReducer, useRef, useState } from "react";
import { erc20Abi } from "viem";
import { useBalance, useConnection, useReadContract } from "wagmi";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import { CheckoutApiError, type ClaimedRental, type Duration, isClaimed, UNCLAIMED_PAYMENT } from "@/lib/checkout/checkout-api";
import { confirmWithRetry } from "@/lib/checkout/confirm-with-retry";
import { forgetPayment, type PendingPayment, pendingPayment, rememberPayment } from "@/lib/checkout/pending-payment";
import { checkoutTotals, shortfallMessage } from "@/lib/checkout/price";
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
import { describeWalletError } from "@/lib/checkout/wallet-errors";

const DURATIONS: Duration[] = ["hour", "day", "month"];

export type UseCheckoutOptions = {
  agentId: string;
  channels: CheckoutChannel[];
  // Micro-USDC as decimal strings, only for the durations the agent is priced for.
  prices: Partial<Record<Duration, string>>;
  initialDuration: Duration;
  chain: PublicChainSettings;
  config: CheckoutConfig;
};

export type CheckoutState = ReturnType<typeof useCheckout>;

export function useCheckout({ agentId, channels, prices, initialDuration, chain, config }: UseCheckoutOptions) {
  const priced = DURATIONS.filter((d) => prices[d] !== undefined);
  const [duration, setDuration] = useState<Duration>(priced.includes(initialDuration) ? initialDuration : priced[0]);
  const [channel, setChannel] = useState<CheckoutChannel>(channels.includes("API") ? "API" : channels[0]);
  const [steps, dispatch] = useReducer(stepsReducer, initialSteps("permit"));
  const [started, setStarted] = useState(false);
  const [result, setResult] = useState<ClaimedRental | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const flow = useRef<FlowData>({});
  const runId = useRef(0);
  const [unfinished, setUnfinished] = useState<PendingPayment | null>(null);
  const [recovering, setRecovering] = useState<string | null>(null);

  // A payment sent from this browser whose code was never shown (tab closed, confirm failed).
  useEffect(() => setUnfinished(pendingPayment(agentId)), [agentId]);

  async function recover(payment: PendingPayment) {
    setRecovering("Looking up your payment…");
    try {
      const confirmed = await confirmWithRetry(payment.txHash, payment.claimSecret, setRecovering, () => true);
      if (confirmed && !isClaimed(confirmed)) setRecovering(UNCLAIMED_PAYMENT);
      else if (confirmed) {
        forgetPayment(payment.txHash);
        setChannel(payment.channel);
        setResult(confirmed);
      }
    } catch (error) {
      setRecovering(error instanceof CheckoutApiError ? error.message : describeWalletError(error).message);
    }
  }

  function dismissUnfinished(payment: PendingPayment) {
    forgetPayment(payment.txHash);
    setUnfinished(null);
  }

  const connection = useConnection();
  const address = connection.address;
  const onChain = connection.chainId === chain.chainId;

  const totals = checkoutTotals(prices[duration] ?? "0");
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
  const locked = running || Boolean(flow.current.payHash);

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
    if (flow.current.renter && address && flow.current.renter !== address && !result) {
      runId.current++;
      flow.current = {};
      setStarted(false);
      dispatch({ type: "reset" });
      setNotice("You switched wallets: the checkout started over for the new wallet.");
    }
  }, [address, result]);

  function choose(next: () => void) {
    next();
    if (started && !running && !result) {
      // A new duration or channel needs a new quote.
      flow.current = {};
      setStarted(false);
      dispatch({ type: "reset" });
    }
  }

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
    const outcome = await runCheckout(
      { config, chain },
      flow.current,
      { agentId, duration, channel, renter, total: totals.total, from },
      {
        dispatch,
        live,
        paymentSent: (txHash, claimSecret) => {
          runId.current = me; // a payment sent is followed to the end, even after Cancel
          rememberPayment({ agentId, txHash, claimSecret, channel, at: Date.now() });
        },
      },
    );
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
      setResult(outcome.result);
    }
  }

  // Cancel: stop waiting for the open wallet prompt or abandon after a failure. A payment already
  // sent is still followed (see run).
  function cancel() {
    runId.current++;
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
    // A payment that was sent but not confirmed stays one click away.
    setUnfinished(pendingPayment(agentId));
  }

  return {
    priced,
    duration,
    chooseDuration: (d: Duration) => choose(() => setDuration(d)),
    channel,
    chooseChannel: (c: CheckoutChannel) => choose(() => setChannel(c)),
    locked,
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
    result,
    run,
    cancel,
    unfinished,
    recovering,
    recover,
    dismissUnfinished,
  };
}
