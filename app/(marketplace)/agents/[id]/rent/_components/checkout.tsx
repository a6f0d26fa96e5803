"use client";
// The wallet checkout. Imported only by /agents/<id>/rent, so wagmi, viem and react-query ship
// with that page alone. Flow and on-chain effects: docs/checkout.md.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useReducer, useRef, useState } from "react";
import { erc20Abi } from "viem";
import { useBalance, useConnect, useConnection, useConnectors, useDisconnect, useReadContract, useSwitchChain, WagmiProvider } from "wagmi";
import { shortHex } from "@/lib/chain/short-hex";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import { CheckoutApiError, isClaimed, UNCLAIMED_PAYMENT, type ClaimedRental, type Duration } from "@/lib/checkout/checkout-api";
import { forgetPayment, pendingPayment, rememberPayment, type PendingPayment } from "@/lib/checkout/pending-payment";
import { checkoutTotals, formatMicroUsdc, shortfallMessage } from "@/lib/checkout/price";
import type { PublicChainSettings } from "@/lib/checkout/public-chain-settings";
import { confirmWithRetry, paymentPlan, runCheckout, type FlowData } from "@/lib/checkout/run-checkout";
import { announcement, failedStep, initialSteps, isRunning, STATUS_LABEL, stepLabel, stepsFor, stepsReducer, waitingForWallet, type StepId } from "@/lib/checkout/steps";
import { describeWalletError } from "@/lib/checkout/wallet-errors";
import { createCheckoutConfig, type CheckoutConfig } from "@/lib/checkout/wagmi-config";
import { RentalResult } from "./rental-result";
import styles from "./checkout.module.css";

export type CheckoutProps = {
  agentId: string;
  agentName: string;
  channels: CheckoutChannel[];
  // Micro-USDC as decimal strings, only for the durations the agent is priced for.
  prices: Partial<Record<Duration, string>>;
  initialDuration: Duration;
  chain: PublicChainSettings;
};

const DURATION_TEXT: Record<Duration, string> = { hour: "1 hour", day: "1 day", month: "1 month (30 days)" };
const DURATIONS: Duration[] = ["hour", "day", "month"];

export function Checkout(props: CheckoutProps) {
  const [config] = useState(() => createCheckoutConfig(props.chain));
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } } }));
  return (
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <CheckoutFlow {...props} config={config} />
      </QueryClientProvider>
    </WagmiProvider>
  );
}

function CheckoutFlow({ agentId, agentName, channels, prices, initialDuration, chain, config }: CheckoutProps & { config: CheckoutConfig }) {
  const priced = DURATIONS.filter((d) => prices[d] !== undefined);
  const [duration, setDuration] = useState<Duration>(priced.includes(initialDuration) ? initialDuration : priced[0]);
  const [channel, setChannel] = useState<CheckoutChannel>(channels.includes("API") ? "API" : channels[0]);
  const [steps, dispatch] = useReducer(stepsReducer, initialSteps("permit"));
  const [started, setStarted] = useState(false);
  const [result, setResult] = useState<ClaimedRental | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [connectError, setConnectError] = useState<string | null>(null);
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

  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const switchChain = useSwitchChain();
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

  async function connectWith(connectorUid: string) {
    setConnectError(null);
    const connector = connectors.find((c) => c.uid === connectorUid);
    if (!connector) return;
    try {
      await connect.mutateAsync({ connector, chainId: chain.chainId });
    } catch (error) {
      setConnectError(describeWalletError(error).message);
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
      dispatch({ type: "failed", step: open, error: "Cancelled. If your wallet still shows the request, reject it there.", rejected: true });
      return;
    }
    flow.current = { permitDomain: flow.current.permitDomain, renter: flow.current.renter };
    setStarted(false);
    dispatch({ type: "reset" });
    // A payment that was sent but not confirmed stays one click away.
    setUnfinished(pendingPayment(agentId));
  }

  if (result) {
    return <RentalResult result={result} channel={channel} agentName={agentName} />;
  }

  const payLabel = `Pay ${formatMicroUsdc(totals.total)} USDC`;
  // One button per wallet. Wallets that announce themselves (EIP-6963) are named; the generic
  // window.ethereum one is shown only when none did (it would be one of them again).
  const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
  const browserWallets = announced.length > 0 ? announced : connectors.filter((c) => c.id === "injected");
  const otherWallets = connectors.filter((c) => c.type !== "injected");

  return (
    <section className={styles.checkout} aria-labelledby="checkout-heading">
      <h2 id="checkout-heading">Checkout</h2>

      {unfinished && !running && (
        <div className="notice" role="note" data-testid="unfinished-payment">
          <p>
            A payment for this agent was sent from this browser on {new Date(unfinished.at).toLocaleString()} but its rental code
            was not shown yet.
          </p>
          <p>
            <button type="button" className="button" onClick={() => void recover(unfinished)}>
              Get my rental code
            </button>{" "}
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                forgetPayment(unfinished.txHash);
                setUnfinished(null);
              }}
            >
              Dismiss
            </button>
          </p>
          {recovering && <p role="status">{recovering}</p>}
        </div>
      )}

      <fieldset className={styles.group} disabled={locked}>
        <legend>Duration</legend>
        {priced.map((d) => (
          <label key={d} className={styles.choice}>
            <input type="radio" name="duration" value={d} checked={duration === d} onChange={() => choose(() => setDuration(d))} />
            <span>
              {DURATION_TEXT[d]} <span className="hint">— {formatMicroUsdc(BigInt(prices[d]!))} USDC</span>
            </span>
          </label>
        ))}
      </fieldset>

      <fieldset className={styles.group} disabled={locked}>
        <legend>Channel</legend>
        {channels.map((c) => (
          <label key={c} className={styles.choice}>
            <input type="radio" name="channel" value={c} checked={channel === c} onChange={() => choose(() => setChannel(c))} />
            <span>{c === "API" ? "API (HTTPS, with your code as the key)" : c}</span>
          </label>
        ))}
      </fieldset>

      <table className={styles.prices} aria-label="Price">
        <tbody>
          <tr>
            <th scope="row">Price ({DURATION_TEXT[duration]})</th>
            <td data-testid="price-amount">{formatMicroUsdc(totals.price)} USDC</td>
          </tr>
          <tr>
            <th scope="row">Service fee</th>
            <td data-testid="fee-amount">+ {formatMicroUsdc(totals.fee)} USDC</td>
          </tr>
          <tr className={styles.total}>
            <th scope="row">Total</th>
            <td data-testid="total-amount">{formatMicroUsdc(totals.total)} USDC</td>
          </tr>
        </tbody>
      </table>
      <p className="hint">Plus the network&apos;s transaction fee (gas), paid by your wallet in the native coin of {chain.chainName}.</p>

      <div className={styles.wallet}>
        <h3>Wallet</h3>
        {connection.status === "connected" && address ? (
          <>
            <p>
              Connected: <code data-testid="wallet-address">{shortHex(address)}</code>
              {connection.connector ? ` (${connection.connector.name})` : ""}{" "}
              <button type="button" className="button button-quiet" onClick={() => disconnect.mutate()} disabled={running}>
                Disconnect
              </button>
            </p>
            {!onChain && (
              <div className="notice" role="alert">
                <p>
                  Your wallet is on {connection.chain?.name ?? `chain ${connection.chainId}`}; payments are made on {chain.chainName}.
                </p>
                <p>
                  <button type="button" className="button button-primary" disabled={switchChain.isPending} onClick={() => switchChain.mutate({ chainId: chain.chainId })}>
                    {switchChain.isPending ? "Confirm the switch in your wallet…" : `Switch to ${chain.chainName}`}
                  </button>
                </p>
                {switchChain.error && <p>{describeWalletError(switchChain.error).message}</p>}
              </div>
            )}
            {onChain && (
              <p data-testid="usdc-balance">
                Balance:{" "}
                {balance.data !== undefined ? `${formatMicroUsdc(balance.data)} USDC` : balance.isError ? "could not be read" : "reading…"}{" "}
                <button type="button" className="button button-quiet" onClick={() => void balance.refetch()}>
                  Refresh balance
                </button>
              </p>
            )}
            {onChain && short && (
              <p className="notice" role="alert" data-testid="balance-shortfall">
                {short}
              </p>
            )}
            {onChain && gas.data && gas.data.value === 0n && (
              <p className="notice" role="note">
                This wallet holds no {gas.data.symbol} on {chain.chainName}: it needs a little to pay the transaction fee (gas).
              </p>
            )}
          </>
        ) : (
          <>
            <p className="hint">Connect the wallet that holds your USDC on {chain.chainName}.</p>
            <div className={styles.buttons}>
              {[...browserWallets, ...otherWallets].map((c) => (
                <button
                  key={c.uid}
                  type="button"
                  className={browserWallets.includes(c) ? "button button-primary" : "button"}
                  disabled={connect.isPending && connect.variables?.connector === c}
                  onClick={() => void connectWith(c.uid)}
                >
                  {c.id === "injected" ? "Connect browser wallet" : `Connect with ${c.name}`}
                </button>
              ))}
              {connect.isPending && (
                <button type="button" className="button button-quiet" onClick={() => connect.reset()}>
                  Cancel
                </button>
              )}
            </div>
            {connect.isPending && <p role="status">Waiting for your wallet… Approve the connection there.</p>}
            {connectError && (
              <p className="notice" role="alert">
                {connectError}
              </p>
            )}
          </>
        )}
      </div>

      <div className={styles.payment}>
        <h3 id="steps-heading">Payment</h3>
        <ol className={styles.stepper} aria-labelledby="steps-heading">
          {order.map((id, index) => {
            const s = steps.steps[id];
            return (
              <li key={id} className={styles.step} data-testid={`step-${id}`} data-status={s.status}>
                <span className={styles.stepIndex} aria-hidden="true">
                  {s.status === "confirmed" ? "✓" : s.status === "failed" ? "!" : index + 1}
                </span>
                <span className={styles.stepBody}>
                  <span className={styles.stepLabel}>{stepLabel(id, steps.plan)}</span>{" "}
                  <span className={`${styles.stepStatus} ${styles[`status-${s.status}`] ?? ""}`}>{STATUS_LABEL[s.status]}</span>
                  {s.detail && s.status !== "failed" && <span className={styles.stepDetail}>{s.detail}</span>}
                  {s.status === "failed" && s.error && <span className={styles.stepError}>{s.error}</span>}
                </span>
              </li>
            );
          })}
        </ol>
        <p className="visually-hidden" role="status" aria-live="polite" data-testid="step-announcement">
          {status}
        </p>
        {!started && (
          <p className="hint">
            {steps.plan === "permit"
              ? "If your token supports it, you sign one permit and send one transaction; otherwise you approve USDC, then pay."
              : "You approve USDC, then send the payment."}
          </p>
        )}

        {notice && (
          <p className="notice" role="alert" data-testid="checkout-notice">
            {notice}
          </p>
        )}

        <div className={styles.buttons}>
          {connection.status === "connected" && onChain && !failed && !running && (
            <button type="button" className="button button-primary" onClick={() => void run("quote")}>
              {payLabel}
            </button>
          )}
          {walletOpen && (
            <button type="button" className="button button-primary" disabled>
              Waiting for your wallet…
            </button>
          )}
          {running && !walletOpen && (
            <p className={styles.working} data-testid="checkout-working">
              Working: the steps above update on their own. You can keep this page open while the network confirms.
            </p>
          )}
          {failed && (
            <button type="button" className="button button-primary" onClick={() => void run(failed)}>
              Retry
            </button>
          )}
          {(walletOpen || failed) && (
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
          )}
        </div>
        {connection.status !== "connected" && <p className="hint">Connect a wallet to pay {formatMicroUsdc(totals.total)} USDC.</p>}
      </div>
    </section>
  );
}
