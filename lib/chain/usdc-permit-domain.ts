import "server-only";
import { parseAbi, type Address, type PublicClient } from "viem";

// What a USDC-like token needs for EIP-2612 permits, read from the token itself: OpenZeppelin
// tokens answer eip712Domain() (ERC-5267); Circle's FiatToken answers name() and version().
const tokenAbi = parseAbi([
  "function eip712Domain() view returns (bytes1, string, string, uint256, address, bytes32, uint256[])",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function nonces(address) view returns (uint256)",
]);

export async function usdcPermitDomain(client: PublicClient, token: Address, chainId: number) {
  try {
    const [, name, version] = await client.readContract({ address: token, abi: tokenAbi, functionName: "eip712Domain" });
    return { name, version, chainId, verifyingContract: token };
  } catch {
    const [name, version] = await Promise.all([
      client.readContract({ address: token, abi: tokenAbi, functionName: "name" }),
      client.readContract({ address: token, abi: tokenAbi, functionName: "version" }),
    ]);
    return { name, version, chainId, verifyingContract: token };
  }
}

export function usdcNonce(client: PublicClient, token: Address, owner: Address): Promise<bigint> {
  return client.readContract({ address: token, abi: tokenAbi, functionName: "nonces", args: [owner] });
}

export const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;
