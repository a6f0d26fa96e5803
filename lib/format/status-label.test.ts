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

  it("names a listing available, offline or not connected, with why", () => {
    expect(listingStatusLabel({ status: "available", webhookConnected: true })).toMatchObject({ label: "Available", tone: "success" });
    expect(listingStatusLabel({ status: "offline", webhookConnected: true })).toMatchObject({
      label: "Offline",
      tone: "warning",
      explanation: expect.stringContaining("paused"),
    });
    // The owner API makes listings `available` before a webhook exists: never shown as Available.
    for (const status of ["available", "offline"]) {
      expect(listingStatusLabel({ status, webhookConnected: false })).toMatchObject({
        label: "Not connected",
        explanation: expect.stringContaining("cannot rent"),
      });
    }
  });
});
