import "client-only";
// Extending a rental from the browser (docs/extend.md): the extension quote (the server checks the
// agent live and signs it), one permit signature, one extendRentalWithPermit transaction followed
// to its receipt, then the confirm that moves the rental's end. Driven by the extend page's
// wallet stepper (app/dashboard/rentals/_components/extend-stepper.tsx).
import { type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import type { Config } from "wagmi";
import { getConnection, signTypedData, simulateContract, switchChain, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { describeWalletError, WalletProblem } from "@/lib/chain/escrow-wallet";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { CheckoutApiError, type Duration } from "@/lib/checkout/checkout-api";
import { defaultSleep } from "@/lib/checkout/confirm-with-retry";
import { permitTypes, readPermitDomain, readPermitNonce, splitSignature } from "@/lib/checkout/permit";

export type ExtensionStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
export type ExtensionOutcome = { ok: true; hash: Hex; endsAt: string } | { ok: false; hash: Hex; message: string };

export type ExtendQuoteResponse = {
  extension: { rentalId: Hex; renter: Address; addedPrice: string; fee: string; addedSeconds: string; endsAt: string; deadline: string };
  signature: Hex;
  usdc: Address;
  ends_at: string;
  total: number;
};

async function post<T>(path: string, body: unknown, code?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...(code ? { "x-api-key": code } : {}) },
      body: JSON.stringify(body),
    });
  } catch {
    throw new CheckoutApiError(0, "The service could not be reached. Check your connection and retry.");
  }
  const data = (await res.json().catch(() => null)) as ({ error?: unknown } & T) | null;
  if (!res.ok)
    throw new CheckoutApiError(res.status, data && typeof data.error === "string" ? data.error : `The service answered ${res.status}.`);
  return data as T;
}

/** POST /api/checkout/extend-quote: the rental named by its code, as on /v1. */
export function requestExtensionQuote(code: string, periods: number, durationType: Duration) {
  return post<ExtendQuoteResponse>("/api/checkout/extend-quote", { periods, durationType }, code);
}

/** POST /api/checkout/extend-confirm until the transaction is final (409) and mined (400 "mined"). */
export async function confirmExtension(txHash: Hex, sleep = defaultSleep): Promise<{ ends_at: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await post<{ ends_at: string }>("/api/checkout/extend-confirm", { txHash });
    } catch (error) {
      const retriable =
        error instanceof CheckoutApiError &&
        (error.status === 409 || error.status === 429 || (error.status === 400 && /mined/i.test(error.message)));
      if (!retriable || attempt >= 20) throw error;
      await sleep(3_000);
    }
  }
}

export async function sendExtension(
  config: Config,
  chain: EscrowChain,
  input: { code: string; periods: number; durationType: Duration; account: Address },
  onStep: (step: ExtensionStep) => void = () => {},
): Promise<ExtensionOutcome> {
  const current = getConnection(config);
  if (current.status !== "connected" || current.address.toLowerCase() !== input.account.toLowerCase()) {
    throw new WalletProblem("Your wallet changed accounts. Connect again with the account that paid for this rental.");
  }
  if (current.chainId !== chain.chainId) await switchChain(config, { chainId: chain.chainId });
  onStep({ kind: "checking" });
  const quoted = await requestExtensionQuote(input.code, input.periods, input.durationType);
  const x = quoted.extension;
  const extension = {
    rentalId: x.rentalId,
    renter: x.renter,
    addedPrice: BigInt(x.addedPrice),
    fee: BigInt(x.fee),
    addedSeconds: BigInt(x.addedSeconds),
    endsAt: BigInt(x.endsAt),
    deadline: BigInt(x.deadline),
  };
  const domain = await readPermitDomain(config, quoted.usdc, chain.chainId, input.account);
  if (!domain) throw new WalletProblem("This chain's USDC does not accept permits, so the extension cannot be paid in one transaction.");
  const nonce = await readPermitNonce(config, quoted.usdc, chain.chainId, input.account);
  onStep({ kind: "wallet" });
  const permit = splitSignature(
    await signTypedData(config, {
      account: input.account,
      domain,
      types: permitTypes,
      primaryType: "Permit",
      message: {
        owner: input.account,
        spender: chain.escrow,
        value: extension.addedPrice + extension.fee,
        nonce,
        deadline: extension.deadline,
      },
    }),
  );
  const { request } = await simulateContract(config, {
    abi: escrowAbi,
    address: chain.escrow,
    functionName: "extendRentalWithPermit",
    args: [extension, quoted.signature, extension.deadline, permit.v, permit.r, permit.s],
    account: input.account,
    chainId: chain.chainId,
  });
  const hash = await writeContract(config, request);
  onStep({ kind: "pending", hash });
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
  if (receipt.status !== "success") {
    return { ok: false, hash, message: "The transaction failed on chain: nothing was paid and the rental was not extended. Try again." };
  }
  const confirmed = await confirmExtension(hash);
  return { ok: true, hash, endsAt: confirmed.ends_at };
}

/** The service's or the escrow's refusal, or the wallet's, in words. */
export function describeExtensionError(error: unknown, chain: EscrowChain): string {
  if (error instanceof CheckoutApiError) return error.message;
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      switch (revert.data?.errorName) {
        case "RentalEnded":
          return "The rental has ended: it can no longer be extended. Rent the agent again from the marketplace.";
        case "InvalidStatus":
          return "The escrow no longer holds this rental as running (disputed or settled): it cannot be extended.";
        case "StaleExtension":
          return "The rental was extended meanwhile. Press the button again for a new quote.";
        case "QuoteExpired":
          return "The quote expired before the transaction landed. Press the button again for a new one.";
        case "EnforcedPause":
          return "Payments are paused on the escrow right now. Nothing was paid; try again later.";
        default:
          return "The escrow refused the extension; nothing was paid. Try again in a moment.";
      }
    }
  }
  return describeWalletError(error, chain);
}
