import { describe, expect, it } from "vitest";
import { listingStatusLabel, rentalStatusLabel } from "@/lib/format/status-label";

describe("status labels", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it("reads an active rental past its end as Ended, before the sweep completes it", () => {
    expect(rentalStatusLabel("active", new Date("2026-11-23T13:00:00Z"), now)).toMatchObject({
      label: "Active",
      tone: "success",
    });
    expect(rentalStatusLabel("active", now, now)).toMatchObject({ label: "Ended", tone: "neutral" });
    expect(rentalStatusLabel("disputed", now, now)).toMatchObject({ label: "Disputed", tone: "danger" });
  });

  it("names a listing available or offline, with why", () => {
    expect(listingStatusLabel("available")).toMatchObject({ label: "Available", tone: "success" });
    expect(listingStatusLabel("offline")).toMatchObject({
      label: "Offline",
      tone: "warning",
      explanation: expect.stringContaining("paused"),
    });
  });
});
