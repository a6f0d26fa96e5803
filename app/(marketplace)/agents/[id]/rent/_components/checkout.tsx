"use client";
// The wallet checkout. Imported only by /agents/<id>/rent, so wagmi, viem and react-query ship
// with that page alone. Flow and on-chain effects: docs/checkout.md. The flow state lives in
// use-checkout.ts; this file composes the parts around it.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { WagmiProvider } from "wagmi";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import type { ChannelLinks, CheckoutChannel } from "@/lib/checkout/activation";
import type { Duration } from "@/lib/checkout/checkout-api";
import { type CheckoutConfig, createCheckoutConfig } from "@/lib/checkout/wagmi-config";
import styles from "./checkout.module.css";
import { PaymentPanel } from "./payment-panel";
import { PriceTable } from "./price-table";
import { RentalOptions } from "./rental-options";
import { RentalResult } from "./rental-result";
import { UnfinishedPaymentNotice } from "./unfinished-payment-notice";
import { useCheckout } from "./use-checkout";
import { WalletPanel } from "./wallet-panel";

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
};

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

function CheckoutFlow({ agentName, channels, prices, chain, links, ...rest }: CheckoutProps & { config: CheckoutConfig }) {
  const checkout = useCheckout({ channels, prices, chain, ...rest });

  if (checkout.result) {
    return <RentalResult result={checkout.result} channel={checkout.channel} agentName={agentName} links={links} />;
  }

  return (
    <section className={styles.checkout} aria-labelledby="checkout-heading">
      <h2 id="checkout-heading">Checkout</h2>

      {checkout.unfinished && !checkout.running && (
        <UnfinishedPaymentNotice
          payment={checkout.unfinished}
          recovering={checkout.recovering}
          onRecover={checkout.recover}
          onDismiss={checkout.dismissUnfinished}
        />
      )}

      <RentalOptions
        priced={checkout.priced}
        prices={prices}
        duration={checkout.duration}
        onDuration={checkout.chooseDuration}
        channels={channels}
        channel={checkout.channel}
        onChannel={checkout.chooseChannel}
        locked={checkout.locked}
      />

      <PriceTable totals={checkout.totals} duration={checkout.duration} chainName={chain.chainName} />

      <WalletPanel {...checkout} chain={chain} />

      <PaymentPanel {...checkout} connected={checkout.connection.status === "connected"} />
    </section>
  );
}
