import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { microToUsdc } from "@/lib/money/usdc";
import { type AvailabilityResponse, availabilityResponseSchema } from "@/lib/schemas/renter-api";

/**
 * What the escrow recorded for a rental: its RentalSettled event's refund and hash, and when it
 * paid the rental out by any path (settledAt).
 */
export type SettledRecord = { availabilityRefundMicro: bigint | null; slaHash: string | null; settledAt: Date | null };

const NOT_SETTLED: SettledRecord = { availabilityRefundMicro: null, slaHash: null, settledAt: null };

/**
 * The body of GET /v1/availability from a rental's terms, built through its schema so no other
 * field leaks. Once the escrow has settled the rental, the refund and hash are the ones its
 * RentalSettled event recorded: the final record. A rental paid out without one (released in full
 * by anyone after the 24-hour grace, or decided by a dispute) had no refund for down minutes.
 */
export function toAvailabilityResponse(
  rentalId: string,
  terms: AvailabilityTerms,
  settled: SettledRecord = NOT_SETTLED,
): AvailabilityResponse {
  const refundMicro = settled.availabilityRefundMicro ?? (settled.settledAt ? 0n : terms.refundMicro);
  return availabilityResponseSchema.parse({
    rental_id: rentalId,
    minutes_total: terms.minutesTotal,
    minutes_measured: terms.minutesMeasured,
    minutes_down: terms.minutesDown,
    down_minutes: terms.downMinutes.map((minute) => minute.toISOString()),
    uptime_percent: terms.uptimeBasisPoints === null ? null : terms.uptimeBasisPoints / 100,
    guarantee_percent: terms.guaranteePermille / 10,
    // Exact: microToUsdc goes through the decimal text, and every amount of at most 6 decimals
    // prints back as that text ("2.5", "0.000001", "0").
    refund_due_usdc: String(microToUsdc(refundMicro)),
    sla_hash: (settled.slaHash ?? terms.slaHash).toLowerCase(),
  });
}
