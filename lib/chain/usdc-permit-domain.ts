import "server-only";
import { type Address, type Hex, type LocalAccount, type PublicClient, parseSignature } from "viem";
import { permitTypes, tokenPermitAbi as tokenAbi } from "@/lib/chain/permit-typed-data";

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

/**
 * The holder's EIP-2612 permit of `value` to `spender` until `deadline`, signed with its key, as
 * the v, r, s the escrow's *WithPermit functions take (checkout and extension with a key).
 */
export async function signUsdcPermit(
  client: PublicClient,
  account: LocalAccount,
  config: { usdc: Address; chainId: number },
  permit: { spender: Address; value: bigint; deadline: bigint },
): Promise<{ v: number; r: Hex; s: Hex }> {
  const signature = parseSignature(
    await account.signTypedData({
      domain: await usdcPermitDomain(client, config.usdc, config.chainId),
      types: permitTypes,
      primaryType: "Permit",
      message: { owner: account.address, ...permit, nonce: await usdcNonce(client, config.usdc, account.address) },
    }),
  );
  return { v: Number(signature.v ?? BigInt(signature.yParity + 27)), r: signature.r, s: signature.s };
}
