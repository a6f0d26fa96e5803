// Which RPC URL a browser may see: an explicit public one, a bare local endpoint, or the chain's
// public endpoint; never a remote CHAIN_RPC_URL (it may carry a provider's API key).
import { describe, expect, it } from "vitest";
import { publicRpcUrl } from "@/lib/chain/public-rpc-url";

const KEYED = "https://base-mainnet.g.alchemy.com/v2/SECRETKEY";

describe("publicRpcUrl", () => {
  it("is CHAIN_PUBLIC_RPC_URL when set", () => {
    expect(publicRpcUrl({ chainId: 8453, serverRpcUrl: KEYED, publicRpcUrl: "https://rpc.example.com/base" })).toBe(
      "https://rpc.example.com/base",
    );
  });

  it("is the chain's public endpoint from viem for the chains USDC is on, never the keyed server URL", () => {
    expect(publicRpcUrl({ chainId: 8453, serverRpcUrl: KEYED })).toBe("https://mainnet.base.org");
    expect(publicRpcUrl({ chainId: 84532, serverRpcUrl: KEYED })).toBe("https://sepolia.base.org");
    expect(publicRpcUrl({ chainId: 42161, serverRpcUrl: KEYED })).toBe("https://arb1.arbitrum.io/rpc");
  });

  it("passes a bare local endpoint on (anvil in development and tests, any port)", () => {
    expect(publicRpcUrl({ chainId: 31337, serverRpcUrl: "http://127.0.0.1:40123" })).toBe("http://127.0.0.1:40123");
    expect(publicRpcUrl({ chainId: 31337, serverRpcUrl: "http://localhost:8545/" })).toBe("http://localhost:8545/");
  });

  it("does not pass on a local URL that could hold a key (path, query, user info)", () => {
    expect(publicRpcUrl({ chainId: 31337, serverRpcUrl: "http://127.0.0.1:8545/v2/SECRETKEY" })).toBe("http://127.0.0.1:8545");
    expect(publicRpcUrl({ chainId: 31337, serverRpcUrl: "http://127.0.0.1:8545/?key=SECRETKEY" })).toBe("http://127.0.0.1:8545");
    expect(publicRpcUrl({ chainId: 8453, serverRpcUrl: "http://user:SECRETKEY@127.0.0.1:8545" })).toBe("https://mainnet.base.org");
  });

  it("is null for a chain not on the list, without CHAIN_PUBLIC_RPC_URL", () => {
    expect(publicRpcUrl({ chainId: 987_654_321, serverRpcUrl: "https://rpc.example.com/SECRETKEY" })).toBeNull();
    // Gnosis: a chain viem knows, but not one the escrow's USDC is issued on.
    expect(publicRpcUrl({ chainId: 100, serverRpcUrl: "https://rpc.example.com/SECRETKEY" })).toBeNull();
  });
});
