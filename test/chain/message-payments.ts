// Pay per answer in the tests: a payer's EIP-3009 authorizations (signed with viem's
// signTypedData on the token's own EIP-712 domain, as an x402 client signs them) and the
// escrow's payForMessage arguments built from them.
import { randomBytes } from "node:crypto";
import { authorizationTypes } from "@x402/evm";
import { type Address, type Hex, type LocalAccount, type PublicClient, parseSignature, toHex } from "viem";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import * as TestUSDC from "@/lib/chain/generated/TestUSDC";

/** The escrow's ABI with the token's errors, which payForMessage bubbles up: reverts decode by name. */
export const payForMessageAbi = [...RentalEscrow.abi, ...TestUSDC.abi.filter((item) => item.type === "error")] as const;

export const cancelAuthorizationTypes = {
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export type MessagePaymentArgs = {
  payer: Address;
  owner: Address;
  price: bigint;
  fee: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
};

export const randomNonce = (): Hex => toHex(randomBytes(32));

/** The token's EIP-712 domain, read from the token (as the service reads USDC's). */
export async function tokenDomain(publicClient: PublicClient, token: Address) {
  const [, name, version, chainId] = await publicClient.readContract({ address: token, abi: TestUSDC.abi, functionName: "eip712Domain" });
  return { name, version, chainId: Number(chainId), verifyingContract: token };
}

/**
 * The payer's TransferWithAuthorization of price + fee to the escrow, valid from a minute before
 * the chain's clock for `validFor` seconds (10 minutes) unless the times are given, and the
 * payForMessage arguments it pays for.
 */
export async function authorize(
  publicClient: PublicClient,
  { token, escrow }: { token: Address; escrow: Address },
  payer: LocalAccount,
  terms: { owner: Address; price: bigint; fee: bigint; validAfter?: bigint; validBefore?: bigint; nonce?: Hex; value?: bigint },
): Promise<{ payment: MessagePaymentArgs; signature: Hex }> {
  const now = (await publicClient.getBlock()).timestamp;
  const payment: MessagePaymentArgs = {
    payer: payer.address,
    owner: terms.owner,
    price: terms.price,
    fee: terms.fee,
    validAfter: terms.validAfter ?? now - 60n,
    validBefore: terms.validBefore ?? now + 600n,
    nonce: terms.nonce ?? randomNonce(),
  };
  const signature = await payer.signTypedData({
    domain: await tokenDomain(publicClient, token),
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: payer.address,
      to: escrow,
      value: terms.value ?? terms.price + terms.fee,
      validAfter: payment.validAfter,
      validBefore: payment.validBefore,
      nonce: payment.nonce,
    },
  });
  return { payment, signature };
}

/** The payer's CancelAuthorization of `nonce`, as cancelAuthorization(authorizer, nonce, v, r, s) arguments. */
export async function signCancel(publicClient: PublicClient, token: Address, payer: LocalAccount, nonce: Hex) {
  const signature = await payer.signTypedData({
    domain: await tokenDomain(publicClient, token),
    types: cancelAuthorizationTypes,
    primaryType: "CancelAuthorization",
    message: { authorizer: payer.address, nonce },
  });
  const { v, r, s } = parseSignature(signature);
  return [payer.address, nonce, Number(v), r, s] as const;
}

/** transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s) arguments for the token itself. */
export function tokenTransferArgs(payment: MessagePaymentArgs, escrow: Address, signature: Hex) {
  const { v, r, s } = parseSignature(signature);
  return [
    payment.payer,
    escrow,
    payment.price + payment.fee,
    payment.validAfter,
    payment.validBefore,
    payment.nonce,
    Number(v),
    r,
    s,
  ] as const;
}
