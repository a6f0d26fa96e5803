import { ApiError } from "@/lib/http/api-error";
import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";

// Chat is allowed only inside an active rental's window; each refusal says why (403).
export function assertRentalUsable(rental: RentalWithAgent, now: Date = new Date()): void {
  if (rental.status !== "active") {
    throw new ApiError(403, `This rental is ${rental.status}; only active rentals can chat.`);
  }
  if (now < rental.startsAt) {
    throw new ApiError(403, `This rental has not started yet; it starts at ${rental.startsAt.toISOString()}.`);
  }
  if (now >= rental.endsAt) {
    throw new ApiError(403, `This rental expired at ${rental.endsAt.toISOString()}; rent the agent again to continue.`);
  }
}
