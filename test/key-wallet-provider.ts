// An EIP-1193 provider backed by a private key: a stand-in for a browser wallet in tests (unit
// tests here; the Playwright tests expose it to pages as window.ethereum, e2e/test-wallet.ts).
// It signs and sends with the key and forwards every read to the RPC. Never used by the app.
import { type Chain, createPublicClient, createWalletClient, type Hex, http, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export type KeyWalletOptions = {
  // Answer the next wallet prompt (signature or transaction) with a 4001 rejection.
  rejectNext?: () => boolean;
};

type Listener = (...args: unknown[]) => void;

export function keyWalletProvider(key: Hex, chain: Chain, rpcUrl: string, options: KeyWalletOptions = {}) {
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  const listeners = new Map<string, Set<Listener>>();
  const prompts: string[] = [];

  const reject = () => Object.assign(new Error("User rejected the request."), { code: 4001 });

  async function request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    const args = (params ?? []) as unknown[];
    switch (method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [account.address];
      case "eth_chainId":
        return `0x${chain.id.toString(16)}`;
      case "wallet_switchEthereumChain":
      case "wallet_addEthereumChain":
        return null;
      case "wallet_requestPermissions":
        return [{ parentCapability: "eth_accounts" }];
      case "wallet_getPermissions":
        return [{ parentCapability: "eth_accounts" }];
      case "personal_sign": {
        prompts.push(method);
        if (options.rejectNext?.()) throw reject();
        return account.signMessage({ message: { raw: args[0] as Hex } });
      }
      case "eth_signTypedData_v4": {
        prompts.push(method);
        if (options.rejectNext?.()) throw reject();
        const typed = JSON.parse(args[1] as string) as TypedDataDefinition & { types: Record<string, unknown> };
        const { EIP712Domain: _domain, ...types } = typed.types as Record<string, unknown>;
        return account.signTypedData({ ...typed, types } as TypedDataDefinition);
      }
      case "eth_sendTransaction": {
        prompts.push(method);
        if (options.rejectNext?.()) throw reject();
        const tx = args[0] as { to: Hex; data?: Hex; value?: Hex; gas?: Hex };
        return wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : undefined,
          gas: tx.gas ? BigInt(tx.gas) : undefined,
        });
      }
      default:
        return reader.request({ method, params } as never);
    }
  }

  return {
    address: account.address,
    // Which wallet prompts were shown, in order (eth_signTypedData_v4 / eth_sendTransaction).
    prompts,
    provider: {
      request,
      on(event: string, listener: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
      },
    },
  };
}
