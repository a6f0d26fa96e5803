// A browser wallet for the Playwright tests: window.ethereum (and an EIP-6963 announcement, as
// real wallet extensions make) in the page, answered in the test process by keyWalletProvider,
// which signs with a local anvil key. The key never enters the page.
import type { Page } from "@playwright/test";
import type { Hex } from "viem";
import { foundry } from "viem/chains";
import { keyWalletProvider } from "../lib/checkout/key-wallet-provider";

export const TEST_WALLET_NAME = "E2E Test Wallet";

export async function installTestWallet(page: Page, key: Hex) {
  const wallet = keyWalletProvider(key, foundry, process.env.E2E_RPC_URL!);
  // Like a real wallet, it shares no account with the site until the user approves a connection
  // (eth_requestAccounts); the approval lasts for the page's life, across navigations.
  let approved = false;
  // Errors cross back as data: an exposed function's rejection would lose the EIP-1193 code.
  await page.exposeFunction("__e2eWalletRequest", async (args: { method: string; params?: unknown }) => {
    try {
      if (args.method === "eth_accounts" && !approved) return { result: [] };
      if (args.method === "eth_requestAccounts") approved = true;
      return { result: await wallet.provider.request(args) };
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string };
      return { error: { code: typeof code === "number" ? code : -32603, message: message ?? String(error) } };
    }
  });
  await page.addInitScript((name: string) => {
    type Answer = { result?: unknown; error?: { code: number; message: string } };
    const bridge = (args: unknown) => (window as unknown as { __e2eWalletRequest: (args: unknown) => Promise<Answer> }).__e2eWalletRequest(args);
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const provider = {
      async request(args: { method: string; params?: unknown }) {
        const answer = await bridge(args);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
      on(event: string, listener: (...args: unknown[]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
        return provider;
      },
      removeListener(event: string, listener: (...args: unknown[]) => void) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    Object.defineProperty(window, "ethereum", { value: provider, configurable: true });
    const icon = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiLz4=";
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", {
          detail: Object.freeze({ info: { uuid: "0b7e0f4e-9a53-4c3f-8d4a-e2e0e2e0e2e0", name, icon, rdns: "dev.agent-rental.e2e-wallet" }, provider }),
        }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }, TEST_WALLET_NAME);
  return wallet;
}
