// WALLETCONNECT_PROJECT_ID from the environment to the checkout's wallet buttons: validated by
// lib/env.ts, passed on by publicChainSettings(), and a WalletConnect connector only when set.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import { createCheckoutConfig } from "@/lib/checkout/wagmi-config";

const PROJECT_ID = "0123456789abcdef0123456789abcdef";
const CHAIN = {
  CHAIN_ID: "31337",
  CHAIN_RPC_URL: "http://127.0.0.1:8545",
  USDC_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  ESCROW_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
};

async function settingsWith(vars: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries({ ...CHAIN, ...vars })) vi.stubEnv(name, value);
  return (await import("@/lib/chain/public-chain-settings")).publicChainSettings();
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("publicChainSettings: WalletConnect project id", () => {
  it("is passed on when WALLETCONNECT_PROJECT_ID is set", async () => {
    expect(await settingsWith({ WALLETCONNECT_PROJECT_ID: PROJECT_ID })).toMatchObject({
      chainId: 31337,
      walletConnectProjectId: PROJECT_ID,
    });
  });

  it("is null when unset, or set empty", async () => {
    expect((await settingsWith({ WALLETCONNECT_PROJECT_ID: undefined }))?.walletConnectProjectId).toBeNull();
    expect((await settingsWith({ WALLETCONNECT_PROJECT_ID: "" }))?.walletConnectProjectId).toBeNull();
  });

  it("refuses a value that is not a project id", async () => {
    await expect(settingsWith({ WALLETCONNECT_PROJECT_ID: "my-project" })).rejects.toThrow(
      /WALLETCONNECT_PROJECT_ID: must be a WalletConnect \(Reown\) project id/,
    );
  });
});

describe("createCheckoutConfig connectors", () => {
  const settings: PublicChainSettings = {
    chainId: 31337,
    chainName: "Local chain (anvil)",
    rpcUrl: CHAIN.CHAIN_RPC_URL,
    usdc: CHAIN.USDC_ADDRESS as `0x${string}`,
    escrow: CHAIN.ESCROW_ADDRESS as `0x${string}`,
    confirmations: 1,
    walletConnectProjectId: null,
  };
  const ids = (config: ReturnType<typeof createCheckoutConfig>) => config.connectors.map((c) => c.id);

  it("without a project id: the browser wallet and Coinbase Wallet, no WalletConnect", () => {
    expect(ids(createCheckoutConfig(settings))).toEqual(["injected", "coinbaseWalletSDK"]);
  });

  it("with a project id: WalletConnect too, not set up during a server render", () => {
    const config = createCheckoutConfig({ ...settings, walletConnectProjectId: PROJECT_ID });
    expect(ids(config)).toEqual(["injected", "coinbaseWalletSDK", "walletConnect"]);
    expect(config.connectors.map((c) => c.name)).toEqual(["Injected", "Coinbase Wallet", "WalletConnect"]);
    // Its setup() would open the WalletConnect provider (IndexedDB, a relay socket) on the server.
    expect(config.connectors.find((c) => c.id === "walletConnect")?.setup).toBeUndefined();
  });
});
