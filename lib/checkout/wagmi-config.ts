// The wagmi config of the checkout page (browser only; imported by the rent page's client
// component, never by other pages, so the marketplace ships no wallet code).
import { defineChain } from "viem";
import { createConfig, http } from "wagmi";
import { coinbaseWallet, injected, walletConnect } from "wagmi/connectors";
import type { PublicChainSettings } from "@/lib/checkout/public-chain-settings";

export function checkoutChain(settings: PublicChainSettings) {
  return defineChain({
    id: settings.chainId,
    name: settings.chainName,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
}

export function createCheckoutConfig(settings: PublicChainSettings, appName = "Agent Rental Service") {
  const chain = checkoutChain(settings);
  const connectors = [
    injected({ shimDisconnect: true }),
    coinbaseWallet({ appName }),
    ...(settings.walletConnectProjectId
      ? [walletConnect({ projectId: settings.walletConnectProjectId, showQrModal: true, metadata: { name: appName, description: "Rent AI agents, paid in USDC", url: typeof location === "undefined" ? "" : location.origin, icons: [] } })]
      : []),
  ];
  return createConfig({
    chains: [chain],
    connectors,
    transports: { [chain.id]: http(settings.rpcUrl) },
    ssr: true,
    // Wallets that announce themselves (EIP-6963) get a button of their own.
    multiInjectedProviderDiscovery: true,
  });
}

export type CheckoutConfig = ReturnType<typeof createCheckoutConfig>;
