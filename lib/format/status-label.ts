// Statuses in words, with the tone of their badge (colour is never the only signal: the label and
// the explanation say it too).
export type BadgeTone = "success" | "warning" | "neutral" | "danger";
export type StatusLabel = { label: string; tone: BadgeTone; explanation: string };

export type VisibleRentalStatus = "active" | "completed" | "cancelled" | "disputed";

const RENTAL: Record<VisibleRentalStatus, StatusLabel> = {
  active: {
    label: "Active",
    tone: "success",
    explanation: "Paid and running: the agent answers your code until the end time.",
  },
  completed: { label: "Completed", tone: "neutral", explanation: "Ended; the escrow paid the owner." },
  cancelled: {
    label: "Cancelled",
    tone: "neutral",
    explanation: "Cancelled and refunded in full to the wallet that paid.",
  },
  disputed: {
    label: "Disputed",
    tone: "danger",
    explanation: "You opened a dispute: the payment is frozen until the owner accepts it or an arbiter decides.",
  },
};

/** A rental's status; "Ended" reads better than "Active" once the end time has passed but the sweep has not run yet. */
export function rentalStatusLabel(status: VisibleRentalStatus, endsAt: Date, now: Date = new Date()): StatusLabel {
  if (status === "active" && endsAt.getTime() <= now.getTime()) {
    return {
      label: "Ended",
      tone: "neutral",
      explanation: "The rental time is over; it is marked completed when the escrow is released (within about a minute).",
    };
  }
  return RENTAL[status];
}

/**
 * A listing's status as its owner sees it. A listing made through the owner API is `available`
 * (as the specification says) before any webhook is connected, yet nobody can rent it: it reads
 * "Not connected" until one is, here as on the marketplace.
 */
export function listingStatusLabel(listing: { status: string; webhookConnected: boolean }): StatusLabel {
  if (!listing.webhookConnected) {
    return {
      label: "Not connected",
      tone: "warning",
      explanation: "No webhook is connected: renters cannot rent it until one is connected and answers its test.",
    };
  }
  return listing.status === "available"
    ? { label: "Available", tone: "success", explanation: "Its webhook passed the latest check: renters can rent it." }
    : {
        label: "Offline",
        tone: "warning",
        explanation: "Its webhook failed the latest check: new rentals are paused until it answers again.",
      };
}
