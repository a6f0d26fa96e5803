// Reliability as the marketplace shows it: uptime over 7 days of health checks, the median reply
// and the share answered over 30 days of messages, null below a handful of samples (clock injected).
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
    expect(figures.get(measured.id)).toEqual({ uptime: 75, medianMs: 250, successRate: 60 });
    expect(figures.get(fresh.id)).toEqual({ uptime: null, medianMs: null, successRate: null });
  });
});
