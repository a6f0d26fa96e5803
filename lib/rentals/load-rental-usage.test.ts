// A rental's usage as its renter sees it: messages by UTC day over the rental's days so far,
// errors, the median reply time, and messages per channel (clock injected, call times fixed).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";
import { loadRentalUsage } from "./load-rental-usage";

const at = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour));

async function monthRentalWithCalls() {
  const agent = await makeAgent({ listing: { channels: ["API", "Telegram"] } });
  const rental = await makeRental(agent.id, { durationType: "month", channel: "Telegram" });
  const window = { startsAt: at(20, 22), endsAt: at(50, 22) }; // 20 Nov 22:00 → 20 Dec 22:00
  await db.rental.update({ where: { id: rental.id }, data: window });
  const call = (createdAt: Date, statusCode: number, latencyMs: number, channel: "API" | "Telegram" = "API") => ({
    rentalId: rental.id,
    agentId: agent.id,
    statusCode,
    webhookStatus: statusCode === 503 ? null : statusCode === 502 ? 500 : 200,
    latencyMs,
    requestBytes: 10,
    responseBytes: 20,
    channel,
    createdAt,
  });
  await db.chatCall.createMany({
    data: [
      call(at(20, 23), 200, 100),
      call(at(21, 9), 200, 300, "Telegram"),
      call(at(21, 10), 502, 500),
      call(at(21, 11), 503, 30_000), // timed out: not a reply time
      call(at(23, 8), 200, 200, "Telegram"),
    ],
  });
  return { rental: { id: rental.id, ...window } };
}

describe("loadRentalUsage", () => {
  it("counts messages and errors per UTC day from the start to today, with the median reply time", async () => {
    const { rental } = await monthRentalWithCalls();
    const usage = await loadRentalUsage(rental, at(23, 12));
    expect(usage.days).toEqual([
      { date: "2026-11-20", messages: 1, errors: 0 },
      { date: "2026-11-21", messages: 3, errors: 2 },
      { date: "2026-11-22", messages: 0, errors: 0 },
      { date: "2026-11-23", messages: 1, errors: 0 },
    ]);
    expect(usage).toMatchObject({ messages: 5, errors: 2, byChannel: { API: 3, Telegram: 2 } });
    // Reply times of the four calls that reached the webhook: 100, 200, 300, 500 → median 250.
    expect(usage.medianMs).toBe(250);
  });

  it("stops at the rental's end, and a rental nobody used has zeros and no median", async () => {
    const agent = await makeAgent();
    const made = await makeRental(agent.id, { durationType: "day" });
    const rental = { id: made.id, startsAt: at(10, 12), endsAt: at(11, 12) };
    const usage = await loadRentalUsage(rental, at(25, 0));
    expect(usage.days.map((d) => d.date)).toEqual(["2026-11-10", "2026-11-11"]);
    expect(usage).toMatchObject({ messages: 0, errors: 0, medianMs: null, byChannel: {} });
  });
});
