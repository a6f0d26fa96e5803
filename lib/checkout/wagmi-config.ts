import "client-only";
// The wagmi config of the checkout page (browser only; imported by the rent page's client
// component, never by other pages, so the marketplace ships no wallet code).
import { defineChain } from "viem";
import { type CreateConnectorFn, createConfig, http } from "wagmi";
import { coinbaseWallet, injected, walletConnect } from "wagmi/connectors";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";

export function checkoutChain(settings: PublicChainSettings) {
  return defineChain({
    id: settings.chainId,
    name: settings.chainName,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
}

// createConfig runs each connector's setup() at once, and WalletConnect's opens its provider there
// (IndexedDB, a relay socket): not something the server render of the checkout may do
// (wevm/wagmi#4729). On the server the connector is still listed, so its button is in the HTML
// and hydration matches, but it is set up in the browser only.
function setUpInBrowserOnly(connector: CreateConnectorFn): CreateConnectorFn {
  if (typeof window !== "undefined") return connector;
  return (config) => ({ ...connector(config), setup: undefined });
}

export function createCheckoutConfig(settings: PublicChainSettings, appName = "Agent Rental Service") {
  const chain = checkoutChain(settings);
  const connectors = [
    injected({ shimDisconnect: true }),
    coinbaseWallet({ appName }),
    ...(settings.walletConnectProjectId
      ? [
          setUpInBrowserOnly(
            walletConnect({
              projectId: settings.walletConnectProjectId,
              showQrModal: true,
              metadata: {
                name: appName,
                description: "Rent AI agents, paid in USDC",
                url: typeof location === "undefined" ? "" : location.origin,
                icons: [],
              },
            }),
          ),
        ]
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
