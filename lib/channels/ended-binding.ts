/** Why a binding ended: /stop, a /start of another rental, "Disconnect chat", a move by the renter, the rental's end. */
export type BindingEndReason = "stopped" | "switched" | "disconnected" | "moved" | "rental_ended";

/** The binding's end, as written to chat_bindings (the open_* columns freed). */
export function endedBinding(reason: BindingEndReason, now: Date) {
  return { endedAt: now, endReason: reason, openUser: null, openRentalId: null };
}
