"use client";
// The checkout's wallet part: connect a wallet, then pay through the stepper. Fetched after the
// page (./lazy-wallet-payment.tsx), so wagmi, viem and react-query are not in the rent page's first
// load, and imported by nothing else. Flow and on-chain effects: docs/checkout.md.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { WagmiProvider } from "wagmi";
import { createCheckoutConfig } from "@/lib/checkout/wagmi-config";
import { PaymentPanel } from "./payment-panel";
import { type UseWalletPaymentOptions, useWalletPayment } from "./use-wallet-payment";
import { WalletPanel } from "./wallet-panel";

export type WalletPaymentProps = Omit<UseWalletPaymentOptions, "config">;

export function WalletPayment(props: WalletPaymentProps) {
  const [config] = useState(() => createCheckoutConfig(props.chain));
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } } }));
  return (
    <WagmiProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <PaymentFlow {...props} config={config} />
      </QueryClientProvider>
    </WagmiProvider>
  );
}

function PaymentFlow(options: UseWalletPaymentOptions) {
  const payment = useWalletPayment(options);
  return (
    <>
      <WalletPanel {...payment} chain={options.chain} />
      <PaymentPanel {...payment} connected={payment.connection.status === "connected"} />
    </>
  );
}
