import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { type StatusResponse, statusResponseSchema } from "@/lib/schemas/renter-api";

// The spec's status body, built through its schema so no internal field can leak. An ended
// rental reads as expired at once (0 seconds left) even before the release sweep completes it. A
// free trial adds `trial.messages_left` (docs/trials.md).
export function toStatusResponse(rental: RentalWithAgent, now: Date = new Date()): StatusResponse {
  const remainingMs = rental.endsAt.getTime() - now.getTime();
  return statusResponseSchema.parse({
    rental: {
      id: rental.id,
      status: rental.status,
      starts_at: rental.startsAt.toISOString(),
      ends_at: rental.endsAt.toISOString(),
      duration_type: rental.durationType,
      channel: rental.channel,
      time_remaining_seconds: Math.max(0, Math.floor(remainingMs / 1000)),
    },
    agent: { id: rental.agent.id, name: rental.agent.name, description: rental.agent.description },
    ...(rental.trial ? { trial: { messages_left: rental.trialMessagesLeft ?? 0 } } : {}),
  });
}
