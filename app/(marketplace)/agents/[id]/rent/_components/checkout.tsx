"use client";
// The checkout. The duration and channel choice and the price are rendered with the page and
// usable at once; the wallet part (connect and pay: wagmi, viem, react-query) is fetched after the
// page (./lazy-wallet-payment.tsx). Flow and on-chain effects: docs/checkout.md.
import { useState } from "react";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import type { ChannelLinks, CheckoutChannel } from "@/lib/checkout/activation";
import type { ClaimedRental, Duration } from "@/lib/checkout/checkout-api";
import { checkoutTotals } from "@/lib/checkout/price";
import styles from "./checkout.module.css";
import { LazyWalletPayment } from "./lazy-wallet-payment";
import { PriceTable } from "./price-table";
import { RentalOptions } from "./rental-options";
import { RentalResult } from "./rental-result";
import { UnfinishedPaymentNotice } from "./unfinished-payment-notice";
import { useUnfinishedPayment } from "./use-unfinished-payment";
import type { PaymentProgress } from "./use-wallet-payment";

const DURATIONS: Duration[] = ["hour", "day", "month"];

export type CheckoutProps = {
  agentId: string;
  agentName: string;
  channels: CheckoutChannel[];
  // Micro-USDC as decimal strings, only for the durations the agent is priced for.
  prices: Partial<Record<Duration, string>>;
  initialDuration: Duration;
  chain: PublicChainSettings;
  // Where the bots are (the Telegram deep link, the Discord install link, "Add to Slack").
  links: ChannelLinks;
  // Whether a session was there when the page loaded (the result links to the rental's page).
  signedIn: boolean;
};

export function Checkout({ agentId, agentName, channels, prices, initialDuration, chain, links, signedIn }: CheckoutProps) {
  const priced = DURATIONS.filter((d) => prices[d] !== undefined);
  const [duration, setDuration] = useState<Duration>(priced.includes(initialDuration) ? initialDuration : priced[0]);
  const [channel, setChannel] = useState<CheckoutChannel>(channels.includes("API") ? "API" : channels[0]);
  const [result, setResult] = useState<ClaimedRental | null>(null);
  const [progress, setProgress] = useState<PaymentProgress>({ running: false, locked: false });
  const unfinished = useUnfinishedPayment(agentId, (payment, rental) => {
    setChannel(payment.channel);
    setResult(rental);
  });

  if (result) {
    return <RentalResult result={result} channel={channel} agentName={agentName} links={links} signedIn={signedIn} />;
  }

  const totals = checkoutTotals(prices[duration] ?? "0");
  return (
    <section className={styles.checkout} aria-labelledby="checkout-heading">
      <h2 id="checkout-heading">Checkout</h2>

      {unfinished.payment && !progress.running && (
        <UnfinishedPaymentNotice
          payment={unfinished.payment}
          recovering={unfinished.recovering}
          onRecover={unfinished.recover}
          onDismiss={unfinished.dismiss}
        />
      )}

      <RentalOptions
        priced={priced}
        prices={prices}
        duration={duration}
        onDuration={setDuration}
        channels={channels}
        channel={channel}
        onChannel={setChannel}
        locked={progress.locked}
      />

      <PriceTable totals={totals} duration={duration} chainName={chain.chainName} />

      <LazyWalletPayment
        agentId={agentId}
        agentName={agentName}
        duration={duration}
        channel={channel}
        totals={totals}
        chain={chain}
        onProgress={setProgress}
        onPaid={setResult}
        onCancel={unfinished.refresh}
      />
    </section>
  );
}
