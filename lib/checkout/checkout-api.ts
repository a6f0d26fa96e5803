import "client-only";
// The browser's calls to the checkout API (app/api/checkout/*), with errors in words.
import type { CheckoutChannel } from "@/lib/checkout/activation";

export type Duration = "hour" | "day" | "month";

export type QuoteResponse = {
  rentalId: string;
  /** Shown to confirm to prove this browser asked for the quote; confirm then returns the code. */
  claimSecret: string;
  quote: {
    rentalId: `0x${string}`;
    renter: `0x${string}`;
    owner: `0x${string}`;
    price: string;
    fee: string;
    duration: string;
    deadline: string;
  };
  signature: `0x${string}`;
  chainId: number;
  escrow: `0x${string}`;
  usdc: `0x${string}`;
  price: number;
  fee: number;
  total: number;
  totalMicro: string;
  /** The live check of the agent's webhook the quote began with (it answered, or there is no quote). */
  probe: { latency_ms: number; checked_at: string };
};

export type ClaimedRental = {
  id: string;
  code: string;
  status: string;
  starts_at: string;
  ends_at: string;
  txHash: `0x${string}`;
  /**
   * Not from the server: the quote's claim secret this browser held, kept in memory so the result
   * can ask for a move command ("Move to another chat account"), which the code alone cannot.
   */
  claimSecret?: string;
};
/** With the quote's claim secret (or signed in as the paying wallet) the rental and its code; else only the status. */
export type ConfirmResponse = ClaimedRental | { status: string; txHash: `0x${string}` };

export function isClaimed(response: ConfirmResponse): response is ClaimedRental {
  return "code" in response;
}

export const UNCLAIMED_PAYMENT =
  "Your payment is confirmed, but this browser no longer holds the proof that it asked for this rental. Sign in with the wallet that paid to see your rental code under My rentals.";

export class CheckoutApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "CheckoutApiError";
  }
}

async function post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CheckoutApiError(0, "The service could not be reached. Check your connection and retry.");
  }
  const data = (await res.json().catch(() => null)) as ({ error?: unknown } & T) | null;
  if (!res.ok) {
    const words = data && typeof data.error === "string" ? data.error : `The service answered ${res.status}.`;
    const retryAfter = res.headers.get("retry-after");
    throw new CheckoutApiError(res.status, res.status === 429 && retryAfter ? `${words} Retry in ${retryAfter} s.` : words);
  }
  return data as T;
}

export function requestQuote(
  input: { agentId: string; durationType: Duration; channel: CheckoutChannel; renter: string },
  signal?: AbortSignal,
) {
  return post<QuoteResponse>("/api/checkout/quote", input, signal);
}

export function confirmPayment(txHash: string, claimSecret: string | undefined, signal?: AbortSignal) {
  return post<ConfirmResponse>("/api/checkout/confirm", { txHash, claimSecret }, signal);
}

/** A one-time command that moves the rental's chat to the account that sends it. */
export type ChatMoveResponse = { platform: "Telegram" | "Discord" | "Slack"; token: string; expiresAt: string };

export function requestChatMove(rentalId: string, claimSecret: string) {
  return post<ChatMoveResponse>("/api/checkout/chat-move", { rentalId, claimSecret });
}

// The quote as the escrow's ABI takes it (amounts as bigint).
export function quoteArgs(q: QuoteResponse["quote"]) {
  return {
    rentalId: q.rentalId,
    renter: q.renter,
    owner: q.owner,
    price: BigInt(q.price),
    fee: BigInt(q.fee),
    duration: BigInt(q.duration),
    deadline: BigInt(q.deadline),
  };
}

// A quote within a minute of its deadline is not worth paying: the transaction may land too late.
export function quoteUsable(q: QuoteResponse["quote"], nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  return BigInt(q.deadline) > BigInt(nowSeconds + 60);
}
