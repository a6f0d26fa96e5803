// Deploys RentalEscrow with a test token on an anvil chain and wraps the calls tests make:
// signing quotes, paying, settling, and reading balances.
import { type Address, BaseError, ContractFunctionRevertedError, erc20Abi, type Hex, keccak256, parseSignature, toHex } from "viem";
import { type Extension, extensionTypes } from "@/lib/chain/extension-typed-data";
import * as BlacklistToken from "@/lib/chain/generated/BlacklistToken";
import * as ReentrantToken from "@/lib/chain/generated/ReentrantToken";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import * as TestUSDC from "@/lib/chain/generated/TestUSDC";
import { permitTypes } from "@/lib/chain/permit-typed-data";
import { type Quote, quoteDomain, quoteTypes } from "@/lib/chain/quote-typed-data";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { admin, deployEscrowContracts, owner, renter, signer } from "../../scripts/deploy-local-chain";
import { accounts, type Chain } from "./anvil";

// The backend's own typed data, so these tests also prove it matches the contract.
export type { Extension, Quote };

/** An escrow id: the backend's random draw, or a fixed one named by `seed` (readable tests). */
export function escrowId(seed?: string): Hex {
  return seed === undefined ? newRentalKeys().escrowId : keccak256(toHex(seed));
}

export const escrowAbi = RentalEscrow.abi;
export const FEE = 1_000_000n; // 1 USDC in 6-decimal units

// The roles the local deployment gives to anvil's default accounts (scripts/deploy-local-chain.ts).
export {
  admin,
  arbiter,
  operator,
  other,
  owner,
  owner2,
  renter,
  renter2,
  signer,
  treasury,
} from "../../scripts/deploy-local-chain";

export const Status = { None: 0, Active: 1, Disputed: 2, Released: 3, Refunded: 4 } as const;

const tokens = { TestUSDC, BlacklistToken, ReentrantToken } as const;
export type TokenKind = keyof typeof tokens;

/** Deploys a token and an escrow whose roles are held by the named test accounts. */
export async function deployEscrow<K extends TokenKind>(chain: Chain, kind: K) {
  const { publicClient, walletClient, mined } = chain;
  const tokenAbi = tokens[kind].abi;
  const { token, escrow } = await deployEscrowContracts(chain, tokens[kind]);

  /** Sends a transaction to the escrow and waits for it. anvil mines reverting transactions
   * too; their revert data is then read from a trace and thrown as viem's decoded error. */
  async function send(from: Address, functionName: string, args: readonly unknown[] = []) {
    const request = { account: from, address: escrow, abi: escrowAbi, functionName, args };
    const hash = await walletClient.writeContract(request as never);
    const receipt = await mined(hash);
    if (receipt.status !== "success") {
      const trace = (await publicClient.request({
        method: "debug_traceTransaction",
        params: [hash, { tracer: "callTracer" }],
      } as never)) as { output?: Hex };
      throw new ContractFunctionRevertedError({ abi: escrowAbi, data: trace.output, functionName });
    }
    return receipt;
  }

  async function sendToken(from: Address, functionName: string, args: readonly unknown[]) {
    const request = { account: from, address: token, abi: tokenAbi, functionName, args };
    const hash = await walletClient.writeContract(request as never);
    return mined(hash);
  }

  function read(functionName: string, args: readonly unknown[] = []) {
    return publicClient.readContract({
      address: escrow,
      abi: escrowAbi,
      functionName,
      args,
    } as never) as Promise<never>;
  }

  const balanceOf = (who: Address) => publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [who] });

  async function quote(overrides: Partial<Quote> = {}): Promise<Quote> {
    return {
      rentalId: escrowId(),
      renter: renter.address,
      owner: owner.address,
      price: 25_000_000n,
      fee: FEE,
      duration: 3_600n,
      deadline: (await chain.now()) + 600n,
      ...overrides,
    };
  }

  function signQuote(q: Quote, by = signer): Promise<Hex> {
    return by.signTypedData({
      domain: quoteDomain(publicClient.chain.id, escrow),
      types: quoteTypes,
      primaryType: "Quote",
      message: q,
    });
  }

  /** Mints to the quote's renter, approves exactly price + fee, and creates the rental. */
  async function create(q: Quote, signature?: Hex) {
    await sendToken(admin.address, "mint", [q.renter, q.price + q.fee]);
    await sendToken(q.renter, "approve", [escrow, q.price + q.fee]);
    return send(q.renter, "createRental", [q, signature ?? (await signQuote(q))]);
  }

  /** An extension of `id` from its current end on chain: 25 USDC + the fee for an hour. */
  async function extension(id: Hex, overrides: Partial<Extension> = {}): Promise<Extension> {
    return {
      rentalId: id,
      renter: renter.address,
      addedPrice: 25_000_000n,
      fee: FEE,
      addedSeconds: 3_600n,
      endsAt: BigInt((await rental(id)).endsAt),
      deadline: (await chain.now()) + 600n,
      ...overrides,
    };
  }

  function signExtension(x: Extension, by = signer): Promise<Hex> {
    return by.signTypedData({
      domain: quoteDomain(publicClient.chain.id, escrow),
      types: extensionTypes,
      primaryType: "Extension",
      message: x,
    });
  }

  /** EIP-2612 permit from the quote's renter for price + fee (TestUSDC only). */
  async function signPermit(q: Pick<Quote, "renter" | "price" | "fee">, deadline: bigint) {
    const from = accounts.find((a) => a.address === q.renter)!;
    const usdc = { address: token, abi: TestUSDC.abi } as const;
    const nonce = await publicClient.readContract({ ...usdc, functionName: "nonces", args: [q.renter] });
    const [, name, version] = await publicClient.readContract({ ...usdc, functionName: "eip712Domain" });
    const signature = await from.signTypedData({
      domain: { name, version, chainId: publicClient.chain.id, verifyingContract: token },
      types: permitTypes,
      primaryType: "Permit",
      message: { owner: q.renter, spender: escrow, value: q.price + q.fee, nonce, deadline },
    });
    const { v, r, s } = parseSignature(signature);
    return { v: Number(v), r, s };
  }

  async function rental(id: Hex) {
    const [renterAddress, startsAt, endsAt, status, ownerAddress, price, fee] = (await read("rentals", [id])) as readonly [
      Address,
      number,
      number,
      number,
      Address,
      bigint,
      number,
    ];
    return { renter: renterAddress, startsAt, endsAt, status, owner: ownerAddress, price, fee: BigInt(fee) };
  }

  return {
    token,
    escrow,
    tokenAbi,
    send,
    sendToken,
    read,
    balanceOf,
    quote,
    signQuote,
    signPermit,
    create,
    extension,
    signExtension,
    rental,
    totalOwed: () => read("totalOwed") as Promise<bigint>,
    credits: (who: Address) => read("credits", [who]) as Promise<bigint>,
  };
}

export type Escrow = Awaited<ReturnType<typeof deployEscrow>>;

/** The custom error a failed call reverted with (its name and arguments), or the message. */
export async function revertOf(call: Promise<unknown>): Promise<{ name: string; args: readonly unknown[] }> {
  try {
    await call;
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      // Errors outside the escrow's ABI (e.g. the token's) are identified by their selector.
      if (reverted.data) return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
      return { name: reverted.raw?.slice(0, 10) ?? "unknown", args: [] };
    }
    throw error;
  }
  throw new Error("expected a revert, but the call succeeded");
}
