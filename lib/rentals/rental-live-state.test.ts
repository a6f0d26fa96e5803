import { describe, expect, it } from "vitest";
import {
  expectLiveChange,
  nextLivePoll,
  rentalLiveState,
  rentalLiveStateSchema,
  sameRentalLiveState,
} from "@/lib/rentals/rental-live-state";

const state = rentalLiveState({
  status: "active",
  disputeDecidedAt: null,
  ownerAnsweredAt: null,
  messages: 3,
  chatConnectedAt: new Date(0),
});

describe("a rental page's live state", () => {
  it("is what the route answers and the browser reads back through its schema", () => {
    expect(state).toEqual({
      status: "active",
      disputeDecidedAt: null,
      ownerAnsweredAt: null,
      messages: 3,
      chatConnectedAt: "1970-01-01T00:00:00.000Z",
    });
    expect(rentalLiveStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(rentalLiveStateSchema.safeParse({ ...state, status: "pending" }).success).toBe(false);
  });

  it("differs when anything the page shows of it does", () => {
    expect(sameRentalLiveState(state, { ...state })).toBe(true);
    for (const change of [
      { status: "disputed" as const },
      { messages: 4 },
      { chatConnectedAt: null },
      { disputeDecidedAt: "2026-11-26T10:00:00.000Z" },
      { ownerAnsweredAt: "2026-11-26T09:00:00.000Z" },
    ])
      expect(sameRentalLiveState(state, { ...state, ...change })).toBe(false);
  });
});

describe("when the page looks again", () => {
  const now = 1_000_000;

  it("every 30 s while the rental can change by itself, never once it is settled", () => {
    expect(nextLivePoll([], "active", now)).toBe(30_000);
    expect(nextLivePoll([], "disputed", now)).toBe(30_000);
    expect(nextLivePoll([], "completed", now)).toBeNull();
    expect(nextLivePoll([], "cancelled", now)).toBeNull();
  });

  it("every second for 15 s after a playground message, every 3 s for 5 minutes after a dispute, then at the idle pace", () => {
    const afterMessage = expectLiveChange([], "message", now);
    expect(nextLivePoll(afterMessage, "active", now)).toBe(1_000);
    expect(nextLivePoll(afterMessage, "active", now + 14_999)).toBe(1_000);
    expect(nextLivePoll(afterMessage, "active", now + 15_000)).toBe(30_000);

    const afterDispute = expectLiveChange([], "dispute", now);
    expect(nextLivePoll(afterDispute, "active", now + 299_999)).toBe(3_000);
    expect(nextLivePoll(afterDispute, "disputed", now + 300_000)).toBe(30_000);

    // Both open: the faster pace wins; closed expectations are dropped as new ones come.
    const both = expectLiveChange(afterDispute, "message", now + 1_000);
    expect(nextLivePoll(both, "active", now + 2_000)).toBe(1_000);
    expect(expectLiveChange(both, "message", now + 400_000)).toHaveLength(1);
  });
});
