// Which chain settings reach the browser: none without payments configured, and never a remote
// CHAIN_RPC_URL (it may carry a provider's API key).
import { afterEach, describe, expect, it, vi } from "vitest";

const ESCROW = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

async function load(vars: Record<string, string>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
  return (await import("@/lib/chain/escrow-chain")).escrowChain();
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("escrowChain", () => {
  it("is null when the chain settings are not all set", async () => {
    expect(await load({ CHAIN_ID: "", CHAIN_RPC_URL: "", ESCROW_ADDRESS: "" })).toBeNull();
    expect(await load({ CHAIN_ID: "31337", CHAIN_RPC_URL: "http://127.0.0.1:8545", ESCROW_ADDRESS: "" })).toBeNull();
  });

  it("passes a local RPC URL on (development)", async () => {
    expect(await load({ CHAIN_ID: "31337", CHAIN_RPC_URL: "http://127.0.0.1:8545", ESCROW_ADDRESS: ESCROW })).toEqual({
      chainId: 31337,
      chainName: "Local chain (anvil)",
      rpcUrl: "http://127.0.0.1:8545",
      escrow: ESCROW,
      explorerUrl: null,
    });
  });

  it("uses the public RPC of a known chain instead of a remote, possibly keyed, CHAIN_RPC_URL", async () => {
    const chain = await load({
      CHAIN_ID: "8453",
      CHAIN_RPC_URL: "https://base-mainnet.g.alchemy.com/v2/SECRETKEY",
      ESCROW_ADDRESS: ESCROW,
    });
    expect(chain).toMatchObject({
      chainId: 8453,
      chainName: "Base",
      rpcUrl: "https://mainnet.base.org",
      explorerUrl: "https://basescan.org",
    });
    expect(JSON.stringify(chain)).not.toContain("SECRETKEY");
    const unknown = await load({
      CHAIN_ID: "987654321",
      CHAIN_RPC_URL: "https://rpc.example.com/SECRETKEY",
      ESCROW_ADDRESS: ESCROW,
    });
    expect(unknown).toMatchObject({ chainId: 987654321, chainName: "Chain 987654321", rpcUrl: null });
    expect(JSON.stringify(unknown)).not.toContain("SECRETKEY");
  });

  it("uses CHAIN_PUBLIC_RPC_URL when it is set", async () => {
    const chain = await load({
      CHAIN_ID: "8453",
      CHAIN_RPC_URL: "https://base-mainnet.g.alchemy.com/v2/SECRETKEY",
      CHAIN_PUBLIC_RPC_URL: "https://rpc.example.com/base",
      ESCROW_ADDRESS: ESCROW,
    });
    expect(chain).toMatchObject({ chainId: 8453, rpcUrl: "https://rpc.example.com/base" });
    expect(JSON.stringify(chain)).not.toContain("SECRETKEY");
  });
});
