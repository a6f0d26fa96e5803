import "client-only";
import type { Hex } from "viem";
import { CheckoutApiError, type ConfirmResponse, confirmPayment as postConfirm } from "@/lib/checkout/checkout-api";

export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// POST /api/checkout/confirm until the payment has its confirmations (409) and is mined (400
// "No mined transaction"): about a minute at most; other errors are thrown.
export async function confirmWithRetry(
  txHash: Hex,
  claimSecret: string | undefined,
  onWait: (words: string) => void,
  live: () => boolean,
  confirm: typeof postConfirm = postConfirm,
  sleep = defaultSleep,
): Promise<ConfirmResponse | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await confirm(txHash, claimSecret);
    } catch (error) {
      const retriable =
        error instanceof CheckoutApiError &&
        (error.status === 409 || error.status === 429 || (error.status === 400 && /mined/i.test(error.message)));
      if (!retriable || attempt >= 20) throw error;
      onWait(`${error.message} (checking again)`);
      await sleep(3_000);
      if (!live()) return null;
    }
  }
}
