import { z } from "zod";

// What of a renter's rental page changes without the renter touching the page: its status (the
// event reader records a dispute, a decision, the end), the owner's answer to a dispute, messages sent from anywhere (the
// playground, the API, a chat bot) and the chat that holds it. Pure: the page, its route and the
// browser's poll share it.

export const rentalLiveStateSchema = z.object({
  status: z.enum(["active", "completed", "cancelled", "disputed"]),
  disputeDecidedAt: z.iso.datetime().nullable(),
  ownerAnsweredAt: z.iso.datetime().nullable(),
  messages: z.number().int().min(0),
  chatConnectedAt: z.iso.datetime().nullable(),
});

export type RentalLiveState = z.infer<typeof rentalLiveStateSchema>;

export function rentalLiveState(parts: {
  status: RentalLiveState["status"];
  disputeDecidedAt: Date | null;
  ownerAnsweredAt: Date | null;
  messages: number;
  chatConnectedAt: Date | null;
}): RentalLiveState {
  return {
    status: parts.status,
    disputeDecidedAt: parts.disputeDecidedAt?.toISOString() ?? null,
    ownerAnsweredAt: parts.ownerAnsweredAt?.toISOString() ?? null,
    messages: parts.messages,
    chatConnectedAt: parts.chatConnectedAt?.toISOString() ?? null,
  };
}

export function sameRentalLiveState(a: RentalLiveState, b: RentalLiveState): boolean {
  return (
    a.status === b.status &&
    a.disputeDecidedAt === b.disputeDecidedAt &&
    a.ownerAnsweredAt === b.ownerAnsweredAt &&
    a.messages === b.messages &&
    a.chatConnectedAt === b.chatConnectedAt
  );
}

/** Something the page did whose effect the service records a moment later. */
export type LiveExpectation = "message" | "dispute";

const EXPECT: Record<LiveExpectation, { everyMs: number; forMs: number }> = {
  // A message's call record is written right after its reply (after the response): look every
  // second for a while, however slow the agent (a reply of up to 30 s has already arrived).
  message: { everyMs: 1_000, forMs: 15_000 },
  // A dispute sent on chain is recorded by the event reader, a cron run every minute, once the
  // transaction has its confirmations: look every 3 seconds for a few minutes.
  dispute: { everyMs: 3_000, forMs: 300_000 },
};

// Changes from elsewhere (a bot's messages, the API, an arbiter's decision, the end): a modest pace.
const IDLE_MS = 30_000;

/** The page's expectations so far: until when each pace holds (ms since the epoch). */
export type LivePollPlan = { until: number; everyMs: number }[];

export function expectLiveChange(plan: LivePollPlan, what: LiveExpectation, now: number): LivePollPlan {
  const { everyMs, forMs } = EXPECT[what];
  return [...plan.filter((p) => p.until > now), { until: now + forMs, everyMs }];
}

/**
 * How long until the next look, or null for none: the fastest expectation still open, else the
 * idle pace while the rental can still change by itself (running or disputed).
 */
export function nextLivePoll(plan: LivePollPlan, status: RentalLiveState["status"], now: number): number | null {
  const open = plan.filter((p) => p.until > now).map((p) => p.everyMs);
  if (open.length > 0) return Math.min(...open);
  return status === "active" || status === "disputed" ? IDLE_MS : null;
}
