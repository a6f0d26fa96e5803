import "client-only";
// EIP-2612 permits from the browser: whether the token supports them, and the typed data to sign.
// The browser twin of lib/chain/usdc-permit-domain.ts (server-only), with wagmi's readContract.
import { type Address, type Hex, parseSignature } from "viem";
import type { Config } from "wagmi";
import { readContract } from "wagmi/actions";
import { permitTypes, tokenPermitAbi } from "@/lib/chain/permit-typed-data";

export { permitTypes, tokenPermitAbi };

export type PermitDomain = { name: string; version: string; chainId: number; verifyingContract: Address };

// The token's permit domain, or null when it has no permit (no nonces(owner), or neither
// eip712Domain() nor name()+version()): then checkout pays with approve + createRental.
export async function readPermitDomain(config: Config, token: Address, chainId: number, owner: Address): Promise<PermitDomain | null> {
  const read = <T>(functionName: "eip712Domain" | "name" | "version" | "nonces") =>
    readContract(config, {
      address: token,
      abi: tokenPermitAbi,
      functionName,
      chainId,
      ...(functionName === "nonces" ? { args: [owner] } : {}),
    } as Parameters<typeof readContract>[1]) as Promise<T>;
  try {
    await read<bigint>("nonces");
  } catch {
    return null;
  }
  try {
    const [, name, version] = await read<readonly [Hex, string, string]>("eip712Domain");
    return { name, version, chainId, verifyingContract: token };
  } catch {
    try {
      const [name, version] = await Promise.all([read<string>("name"), read<string>("version")]);
      return { name, version, chainId, verifyingContract: token };
    } catch {
      return null;
    }
  }
}

export function readPermitNonce(config: Config, token: Address, chainId: number, owner: Address): Promise<bigint> {
  return readContract(config, { address: token, abi: tokenPermitAbi, functionName: "nonces", args: [owner], chainId });
}

// A 65-byte signature as the v, r, s createRentalWithPermit takes.
export function splitSignature(signature: Hex): { v: number; r: Hex; s: Hex } {
  const { r, s, v, yParity } = parseSignature(signature);
  return { v: Number(v ?? BigInt((yParity ?? 0) + 27)), r, s };
}
