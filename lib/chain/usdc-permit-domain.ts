import "server-only";
import type { Address, PublicClient } from "viem";
import { tokenPermitAbi as tokenAbi } from "@/lib/chain/permit-typed-data";

// A token's permit domain and a holder's nonce, read from the token itself (either way it answers).
export async function usdcPermitDomain(client: PublicClient, token: Address, chainId: number) {
  try {
    const [, name, version] = await client.readContract({
      address: token,
      abi: tokenAbi,
      functionName: "eip712Domain",
    });
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
