import { describe, expect, it } from "vitest";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";

const now = new Date("2026-11-26T12:00:00Z");
const window = { startsAt: new Date("2026-11-26T06:00:00Z"), endsAt: new Date("2026-11-26T18:00:00Z") };

describe("why a chat cannot use a rental", () => {
  it("says a disputed rental is disputed and frozen until the dispute is decided", () => {
    expect(rentalUnusableReason({ status: "disputed", ...window }, now)).toBe(
      "This rental is disputed: its payment is frozen in the escrow and the agent cannot be used until the dispute is decided.",
    );
  });

  it("names every other reason, and none for a running rental", () => {
    expect(rentalUnusableReason({ status: "active", ...window }, now)).toBeNull();
    expect(rentalUnusableReason({ status: "pending", ...window }, now)).toMatch(/not been confirmed yet/);
    expect(rentalUnusableReason({ status: "cancelled", ...window }, now)).toMatch(/was cancelled/);
    expect(rentalUnusableReason({ status: "completed", ...window }, now)).toMatch(/has ended/);
    expect(rentalUnusableReason({ status: "active", ...window }, new Date("2026-11-26T05:00:00Z"))).toBe(
      "This rental has not started yet: it starts 26 Nov 2026, 06:00 UTC.",
    );
    expect(rentalUnusableReason({ status: "active", ...window }, window.endsAt)).toMatch(/^This rental ended 26 Nov 2026, 18:00 UTC\./);
  });
});
