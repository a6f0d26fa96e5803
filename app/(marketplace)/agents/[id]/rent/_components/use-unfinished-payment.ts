import "client-only";
// A payment sent from this browser whose code was never shown (tab closed, confirm failed): the
// one to offer, and getting its code. Needs no wallet: it asks the service, not the chain.
import { useEffect, useState } from "react";
import { CheckoutApiError, type ClaimedRental, isClaimed, UNCLAIMED_PAYMENT } from "@/lib/checkout/checkout-api";
import { confirmWithRetry } from "@/lib/checkout/confirm-with-retry";
import { forgetPayment, type PendingPayment, pendingPayment } from "@/lib/checkout/pending-payment";
import { describeWalletError } from "@/lib/checkout/wallet-errors";

export function useUnfinishedPayment(agentId: string, onRecovered: (payment: PendingPayment, rental: ClaimedRental) => void) {
  const [payment, setPayment] = useState<PendingPayment | null>(null);
  // What the recovery is doing or why it failed, in words; null before it starts.
  const [recovering, setRecovering] = useState<string | null>(null);

  useEffect(() => setPayment(pendingPayment(agentId)), [agentId]);

  async function recover(unfinished: PendingPayment) {
    setRecovering("Looking up your payment…");
    try {
      const confirmed = await confirmWithRetry(unfinished.txHash, unfinished.claimSecret, setRecovering, () => true);
      if (confirmed && !isClaimed(confirmed)) setRecovering(UNCLAIMED_PAYMENT);
      else if (confirmed) {
        forgetPayment(unfinished.txHash);
        onRecovered(unfinished, { ...confirmed, claimSecret: unfinished.claimSecret });
      }
    } catch (error) {
      setRecovering(error instanceof CheckoutApiError ? error.message : describeWalletError(error).message);
    }
  }

  function dismiss(unfinished: PendingPayment) {
    forgetPayment(unfinished.txHash);
    setPayment(null);
  }

  // After a cancelled payment: one that was sent but not confirmed stays one click away.
  function refresh() {
    setPayment(pendingPayment(agentId));
  }

  return { payment, recovering, recover, dismiss, refresh };
}
