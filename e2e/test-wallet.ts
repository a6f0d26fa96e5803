// A browser wallet for the Playwright tests: window.ethereum (and an EIP-6963 announcement, as
// real wallet extensions make) in the page, answered in the test process by keyWalletProvider,
// which signs with a local anvil key. The key never enters the page.
import type { Page } from "@playwright/test";
import type { Hex } from "viem";
import { foundry } from "viem/chains";
import { keyWalletProvider } from "../test/key-wallet-provider";

export const TEST_WALLET_NAME = "E2E Test Wallet";

type Request = { method: string; params?: unknown };

export async function installTestWallet(page: Page, key: Hex, options: { chainId?: number } = {}) {
  let rejectNext = false;
  const wallet = keyWalletProvider(key, foundry, process.env.E2E_RPC_URL!, {
    rejectNext: () => {
      const reject = rejectNext;
      rejectNext = false;
      return reject;
    },
  });
  // Like a real wallet, it shares no account with the site until the user approves a connection
  // (eth_requestAccounts); the approval lasts for the page's life, across navigations. It is on
  // one network at a time (the local chain unless told otherwise) and switches when asked.
  let approved = false;
  let chainId = options.chainId ?? foundry.id;
  const requests: string[] = [];

  async function answer({ method, params }: Request): Promise<unknown> {
    requests.push(method);
    if (method === "eth_accounts" && !approved) return [];
    if (method === "eth_requestAccounts") approved = true;
    if (method === "eth_chainId") return `0x${chainId.toString(16)}`;
    if (method === "wallet_switchEthereumChain") {
      const wanted = Number((params as [{ chainId: string }])[0].chainId);
      if (wanted !== foundry.id) throw Object.assign(new Error("Unrecognized chain ID."), { code: 4902 });
      chainId = wanted;
      return null;
    }
    if (chainId !== foundry.id && (method === "eth_sendTransaction" || method === "eth_signTypedData_v4")) {
      throw Object.assign(new Error(`The wallet is on chain ${chainId}.`), { code: 4901 });
    }
    return wallet.provider.request({ method, params });
  }

  // Errors cross back as data: an exposed function's rejection would lose the EIP-1193 code.
  await page.exposeFunction("__e2eWalletRequest", async (args: Request) => {
    try {
      return { result: await answer(args) };
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string };
      return { error: { code: typeof code === "number" ? code : -32603, message: message ?? String(error) } };
    }
  });
  await page.addInitScript((name: string) => {
    type Answer = { result?: unknown; error?: { code: number; message: string } };
    type Listener = (...args: unknown[]) => void;
    const bridge = (args: unknown) =>
      (window as unknown as { __e2eWalletRequest: (args: unknown) => Promise<Answer> }).__e2eWalletRequest(args);
    const listeners = new Map<string, Set<Listener>>();
    const emit = (event: string, value: unknown) => {
      for (const listener of listeners.get(event) ?? []) listener(value);
    };
    const provider = {
      async request(args: { method: string; params?: [{ chainId?: string }] }) {
        const answer = await bridge(args);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        if (args.method === "wallet_switchEthereumChain") emit("chainChanged", args.params?.[0]?.chainId);
        return answer.result;
      },
      on(event: string, listener: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
        return provider;
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    Object.defineProperty(window, "ethereum", { value: provider, configurable: true });
    // What the wallet's own UI would do: the test calls this to "switch network in the wallet".
    Object.defineProperty(window, "__e2eWalletEmit", { value: emit });
    const icon = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxIDEiLz4=";
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent("eip6963:announceProvider", {
          detail: Object.freeze({
            info: { uuid: "0b7e0f4e-9a53-4c3f-8d4a-e2e0e2e0e2e0", name, icon, rdns: "dev.agent-rental.e2e-wallet" },
            provider,
          }),
        }),
      );
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }, TEST_WALLET_NAME);

  return {
    address: wallet.address,
    /** Wallet prompts shown so far (signatures and transactions), in order. */
    prompts: wallet.prompts,
    /** Every method the page asked the wallet for, in order. */
    requests,
    /** The user declines the next signature or transaction. */
    rejectNextPrompt() {
      rejectNext = true;
    },
    /** The user switches the wallet to another network in the wallet's own UI. */
    async switchNetwork(id: number) {
      chainId = id;
      await page.evaluate(
        (hex) => (window as unknown as { __e2eWalletEmit: (e: string, v: unknown) => void }).__e2eWalletEmit("chainChanged", hex),
        `0x${id.toString(16)}`,
      );
    },
  };
}
