// Reliability as the marketplace shows it: uptime over 7 days, from the rentals' minutes measured
// every minute once they hold an hour, else from the scheduled health checks; the median reply and
// the share answered over 30 days of messages; null below a handful of samples (clock injected).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";
import { loadReliability } from "./load-reliability";

const now = new Date(Date.UTC(2026, 10, 24, 12));
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe("loadReliability", () => {
  it("measures uptime, median reply and answered share in their windows; too few samples say nothing", async () => {
    const measured = await makeAgent();
    const fresh = await makeAgent();
    const rental = await makeRental(measured.id);
    await db.healthCheck.createMany({
      data: [
        ...[true, true, true, false].map((ok, i) => ({
          agentId: measured.id,
          ok,
          latencyMs: 50,
          trigger: "schedule",
          createdAt: daysAgo(i + 1),
        })),
        { agentId: measured.id, ok: false, latencyMs: 50, trigger: "schedule", createdAt: daysAgo(8) }, // outside the 7 days
        { agentId: fresh.id, ok: true, latencyMs: 50, trigger: "schedule", createdAt: daysAgo(1) },
        // The owners' own connection tests (three mistyped URLs) are not the agent's uptime.
        ...[measured.id, fresh.id, fresh.id, fresh.id].map((agentId) => ({
          agentId,
          ok: false,
          latencyMs: 50,
          trigger: "connect",
          createdAt: daysAgo(0.5),
        })),
      ],
    });
    const call = (statusCode: number, latencyMs: number, days: number) => ({
      rentalId: rental.id,
      agentId: measured.id,
      statusCode,
      webhookStatus: statusCode === 503 ? null : 200,
      latencyMs,
      requestBytes: 1,
      responseBytes: 1,
      createdAt: daysAgo(days),
    });
    await db.chatCall.createMany({
      data: [call(200, 100, 1), call(200, 300, 2), call(200, 200, 3), call(502, 900, 4), call(503, 30_000, 5), call(200, 5, 40)],
    });
    const figures = await loadReliability([measured.id, fresh.id], now);
    // 3 of 4 checks in 7 days; 3 of 5 calls in 30 days answered; median of 100, 200, 300, 900.
    expect(figures.get(measured.id)).toEqual({ uptime: 75, uptimeSource: "healthChecks", medianMs: 250, successRate: 60 });
    expect(figures.get(fresh.id)).toEqual({ uptime: null, uptimeSource: null, medianMs: null, successRate: null });
  });

  it("takes uptime from the rentals' minutes in the 7 days, clipped to them, once they hold an hour, whatever the checks say", async () => {
    const agent = await makeAgent();
    const since = daysAgo(7);
    const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);
    const rental = async (
      status: "active" | "completed" | "cancelled" | "disputed" | "pending",
      startsAt: Date,
      minutes: number,
      runs: { measured?: number[]; down: number[] },
    ) => {
      const { id } = await makeRental(agent.id, { status });
      await db.rental.update({
        where: { id },
        data: { startsAt, endsAt: minutesAfter(startsAt, minutes), minutesMeasured: runs.measured ?? [0, minutes], minutesDown: runs.down },
      });
    };
    // A day across the window's start: its minutes 720–1439 are inside, 10 of their down minutes too.
    await rental("completed", minutesAfter(since, -720), 1440, { down: [700, 730] });
    // An hour two days ago: 10 down.
    await rental("completed", daysAgo(2), 60, { down: [10, 20] });
    // Cancelled by a dispute after 30 minutes, all down: counts up to its last measured minute.
    await rental("cancelled", daysAgo(1), 1440, { measured: [0, 30], down: [0, 30] });
    // Running for 30 minutes and a part: 31 minutes begun, 1 down.
    await rental("active", minutesAfter(now, -30.5), 43_200, { measured: [0, 30], down: [5, 6] });
    // Before the window, and awaiting payment: neither counts.
    await rental("completed", daysAgo(9), 1440, { down: [0, 1440] });
    await rental("pending", daysAgo(1), 60, { down: [0, 60] });
    await db.healthCheck.createMany({
      data: [1, 2, 3, 4, 5].map((day) => ({ agentId: agent.id, ok: true, latencyMs: 50, trigger: "schedule", createdAt: daysAgo(day) })),
    });
    const figures = await loadReliability([agent.id], now);
    // 720 + 60 + 30 + 31 = 841 minutes, 10 + 10 + 30 + 1 = 51 down: 790 / 841 = 93.93…%, rounded down.
    expect(figures.get(agent.id)).toMatchObject({ uptime: 93.9, uptimeSource: "rentalMinutes" });
  });

  it("falls back to the health checks below an hour of rented minutes; an hour is enough", async () => {
    const short = await makeAgent();
    const hour = await makeAgent();
    const startsAt = daysAgo(1);
    for (const [agent, minutes] of [
      [short, 59],
      [hour, 60],
    ] as const) {
      const { id } = await makeRental(agent.id, { status: "completed" });
      await db.rental.update({
        where: { id },
        data: { startsAt, endsAt: new Date(startsAt.getTime() + minutes * 60_000), minutesMeasured: [0, minutes], minutesDown: [0, 6] },
      });
      await db.healthCheck.createMany({
        data: [true, true, true, false].map((ok, i) => ({
          agentId: agent.id,
          ok,
          latencyMs: 50,
          trigger: "schedule",
          createdAt: daysAgo(i + 1),
        })),
      });
    }
    const figures = await loadReliability([short.id, hour.id], now);
    expect(figures.get(short.id)).toMatchObject({ uptime: 75, uptimeSource: "healthChecks" });
    expect(figures.get(hour.id)).toMatchObject({ uptime: 90, uptimeSource: "rentalMinutes" });
  });
});
