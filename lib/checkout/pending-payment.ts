import "client-only";
// A payment sent from this browser but not yet turned into a rental code (the tab closed, the
// confirm call failed): remembered so the checkout can offer "Get my rental code" later.
// The chain is the source of truth; this only keeps the transaction hash at hand.
import type { CheckoutChannel } from "@/lib/checkout/activation";

// claimSecret: the quote's proof that this browser asked for the rental, kept in this browser only,
// so a later visit can still be handed the code.
export type PendingPayment = {
  agentId: string;
  txHash: `0x${string}`;
  claimSecret?: string;
  channel: CheckoutChannel;
  at: number;
};

const KEY = "ars.checkout.pending";
const MAX_AGE_MS = 7 * 86_400_000;

type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function storage(): StorageLike | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode)
  }
}

export function rememberPayment(payment: PendingPayment, store: StorageLike | null = storage()) {
  try {
    store?.setItem(KEY, JSON.stringify(payment));
  } catch {
    // full or disabled: the code is still shown on this page
  }
}

export function pendingPayment(agentId: string, now = Date.now(), store: StorageLike | null = storage()): PendingPayment | null {
  try {
    const value = JSON.parse(store?.getItem(KEY) ?? "null") as Partial<PendingPayment> | null;
    if (!value || value.agentId !== agentId || typeof value.txHash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value.txHash)) return null;
    if (typeof value.at !== "number" || now - value.at > MAX_AGE_MS) return null;
    return value as PendingPayment;
  } catch {
    return null;
  }
}

export function forgetPayment(txHash: string, store: StorageLike | null = storage()) {
  try {
    const value = JSON.parse(store?.getItem(KEY) ?? "null") as Partial<PendingPayment> | null;
    if (value?.txHash === txHash) store?.removeItem(KEY);
  } catch {
    store?.removeItem(KEY);
  }
}
