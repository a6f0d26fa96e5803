import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadOwnerTimeSeries, seriesStart } from "@/lib/agents/load-owner-time-series";
import { db } from "@/lib/db";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { makeOwner, makeOwnerAgent } from "@/test/fixtures";

const NOW = new Date("2026-06-15T10:00:00Z");
const at = (iso: string) => new Date(iso);

async function rental(
  agentId: string,
  startsAt: Date,
  status: "active" | "completed" | "disputed" | "cancelled" | "pending",
  priceMicro: bigint,
) {
  return db.rental.create({
    data: {
      id: randomUUID(),
      ...newRentalKeys(),
      agentId,
      status,
      durationType: "hour",
      channel: "API",
      startsAt,
      // An active rental that has ended would be completed by other test files' release sweeps.
      endsAt: status === "active" ? new Date("2099-01-01T00:00:00Z") : new Date(startsAt.getTime() + 3_600_000),
      priceMicro,
      feeMicro: 1_000_000n,
    },
  });
}

async function call(
  agentId: string,
  rentalId: string,
  createdAt: Date,
  latencyMs: number,
  statusCode = 200,
  webhookStatus: number | null = 200,
) {
  await db.chatCall.create({
    data: { agentId, rentalId, createdAt, latencyMs, statusCode, webhookStatus, requestBytes: 10, responseBytes: 10 },
  });
}

async function check(agentId: string, createdAt: Date, ok: boolean) {
  await db.healthCheck.create({
    data: { agentId, createdAt, ok, statusCode: ok ? 200 : 500, latencyMs: 5, trigger: "schedule" },
  });
}

describe("seriesStart", () => {
  it("is UTC midnight of the first of the 30 days ending today", () => {
    expect(seriesStart(NOW).toISOString()).toBe("2026-05-17T00:00:00.000Z");
    expect(seriesStart(new Date("2026-03-01T23:59:59.999Z"), 2).toISOString()).toBe("2026-02-28T00:00:00.000Z");
  });
});

describe("loadOwnerTimeSeries", () => {
  it("has every one of the 30 days, zeros and nulls where nothing happened", async () => {
    const owner = await makeOwner();
    const days = await loadOwnerTimeSeries(owner.id, { now: NOW });
    expect(days).toHaveLength(30);
    expect(days[0].date).toBe("2026-05-17");
    expect(days[29].date).toBe("2026-06-15");
    expect(
      days.every((d) => d.rentals === 0 && d.revenueMicro === 0n && d.chatCalls === 0 && d.latencyP50 === null && d.uptime === null),
    ).toBe(true);
  });

  it("counts rentals, revenue, calls, latency percentiles and uptime per UTC day, for this owner only", async () => {
    const owner = await makeOwner();
    const a = await makeOwnerAgent(owner.id);
    const b = await makeOwnerAgent(owner.id);
    const stranger = await makeOwnerAgent((await makeOwner()).id);

    // 2026-06-14: two paid rentals (one per agent) count; pending and cancelled do not.
    const r1 = await rental(a.id, at("2026-06-14T00:00:00Z"), "completed", 2_000_000n);
    await rental(b.id, at("2026-06-14T23:59:59.999Z"), "active", 3_500_000n);
    await rental(a.id, at("2026-06-14T12:00:00Z"), "pending", 9_000_000n);
    await rental(a.id, at("2026-06-14T12:00:00Z"), "cancelled", 9_000_000n);
    await rental(stranger.id, at("2026-06-14T12:00:00Z"), "completed", 9_000_000n);
    // 2026-06-15 (today): a disputed one; outside the window (before 2026-05-17, or tomorrow): not counted.
    await rental(a.id, at("2026-06-15T09:00:00Z"), "disputed", 1_000_000n);
    await rental(a.id, at("2026-05-16T23:59:59Z"), "completed", 1_000_000n);
    await rental(a.id, at("2026-06-16T00:00:00Z"), "active", 1_000_000n);

    // Calls on 2026-06-14: latencies 100..1000 reach the webhook; one 503 never did (no webhook status).
    for (let i = 1; i <= 10; i++) await call(a.id, r1.id, at(`2026-06-14T10:00:${String(i).padStart(2, "0")}Z`), i * 100);
    await call(a.id, r1.id, at("2026-06-14T11:00:00Z"), 30_000, 503, null);

    // Health checks: 2026-06-13 three of four pass; 2026-06-15 one fails.
    for (const ok of [true, true, true, false]) await check(b.id, at("2026-06-13T08:00:00Z"), ok);
    await check(a.id, at("2026-06-15T08:00:00Z"), false);
    await check(stranger.id, at("2026-06-15T08:00:00Z"), true);

    const days = await loadOwnerTimeSeries(owner.id, { now: NOW });
    const on = (date: string) => days.find((d) => d.date === date)!;

    expect(on("2026-06-14")).toEqual({
      date: "2026-06-14",
      rentals: 2,
      revenueMicro: 5_500_000n,
      chatCalls: 11,
      chatErrors: 1,
      latencyP50: 550,
      latencyP95: 955,
      uptime: null,
      healthChecks: 0,
    });
    expect(on("2026-06-15")).toMatchObject({
      rentals: 1,
      revenueMicro: 1_000_000n,
      chatCalls: 0,
      latencyP50: null,
      uptime: 0,
      healthChecks: 1,
    });
    expect(on("2026-06-13")).toMatchObject({ rentals: 0, uptime: 75, healthChecks: 4 });
    expect(days.reduce((sum, d) => sum + d.rentals, 0)).toBe(3);
    expect(days.reduce((sum, d) => sum + d.revenueMicro, 0n)).toBe(6_500_000n);
  });
});
