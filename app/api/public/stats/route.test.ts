import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/public/stats/route";
import { db } from "@/lib/db";
import type { Channel } from "@/lib/generated/prisma/enums";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, makeRental } from "@/test/fixtures";

const stats = (key?: string) => GET(ownerRequest("stats", { key }));
const DAY_MS = 86_400_000;

async function chatCalls(
  rental: { id: string; agentId: string },
  calls: [statusCode: number, webhookStatus: number | null, latencyMs: number, channel?: Channel][],
) {
  await db.chatCall.createMany({
    data: calls.map(([statusCode, webhookStatus, latencyMs, channel = "API"]) => ({
      channel,
      rentalId: rental.id,
      agentId: rental.agentId,
      statusCode,
      webhookStatus,
      latencyMs,
      requestBytes: 10,
      responseBytes: 20,
    })),
  });
}

async function healthChecks(agentId: string, checks: [ok: boolean, ageMs: number][], trigger = "schedule") {
  await db.healthCheck.createMany({
    data: checks.map(([ok, ageMs]) => ({
      agentId,
      ok,
      statusCode: ok ? 200 : 500,
      latencyMs: 30,
      trigger,
      createdAt: new Date(Date.now() - ageMs),
    })),
  });
}

// Answers sold per message at 0.01 USDC; only settled ones are revenue.
async function answersSold(agentId: string, statuses: string[]) {
  const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;
  await db.messagePayment.createMany({
    data: statuses.map((status) => ({
      agentId,
      payer: hex(20),
      nonce: hex(32),
      payoutAddress: hex(20),
      priceMicro: 10_000n,
      feeMicro: 1_000n,
      validAfter: 0n,
      validBefore: 2_000_000_000n,
      signature: hex(65),
      status,
      settledAt: status === "settled" ? new Date() : null,
    })),
  });
}

describe("GET /api/public/stats", () => {
  it("200: exact figures per agent and in total, from known rentals, calls and checks", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    // Prices: hour 2.5, day 10.25, month 100 USDC.
    const listing = { pricePerHour: 2.5, pricePerDay: 10.25, pricePerMonth: 100 };
    const alpha = await makeOwnerAgent(accountId, { listing: { name: "Alpha", ...listing } });
    const beta = await makeOwnerAgent(accountId, { listing: { name: "Beta", ...listing } });
    const idle = await makeOwnerAgent(accountId, { listing: { name: "Idle", ...listing } });

    const a1 = await makeRental(alpha.id, { status: "completed", durationType: "day" }); // released 10.25
    await makeRental(alpha.id, { status: "completed", durationType: "hour" }); // released 2.5
    await makeRental(alpha.id, { durationType: "month" }); // active, in escrow 100
    await makeRental(alpha.id, { status: "disputed", durationType: "hour" }); // in escrow 2.5
    await makeRental(alpha.id, { status: "cancelled", durationType: "day" }); // counted, no revenue
    await makeRental(alpha.id, { status: "pending", durationType: "month" }); // awaiting payment: ignored
    // Ended, unreleased: in escrow 2.5, not active. Its 29 minutes (and Alpha's rentals' first
    // minutes) are under the hour of rentals that uptime needs: the checks count instead.
    const b1 = await makeRental(beta.id, { durationType: "hour", startsInSeconds: -1800, endsInSeconds: -60 });
    await makeRental(beta.id, { status: "completed", durationType: "month" }); // released 100

    // Alpha: 6 calls, 2 of them 5xx; latency over the 5 that reached the webhook: 50, 100, 200, 300, 400.
    await chatCalls(a1, [
      [200, 200, 100],
      [200, 200, 200],
      [200, 200, 300, "Telegram"],
      [200, 200, 400, "Telegram"],
      [502, 500, 50],
      [503, null, 0],
    ]);
    // Beta: 3 calls, 1 of them 5xx (timeout: never reached a reply), latencies 1000 and 3000.
    await chatCalls(b1, [
      [200, 200, 1000],
      [200, 200, 3000],
      [503, null, 30_000, "Slack"],
    ]);

    // A free trial of Beta (running, never paid) and its 2 calls, one failed: counted apart, in no
    // paid figure (rentals, active, revenue, calls, error rate, latency).
    const trial = await db.rental.create({
      data: {
        id: randomUUID(),
        ...newRentalKeys(),
        agentId: beta.id,
        status: "active",
        durationType: "month",
        channel: "API",
        startsAt: new Date(Date.now() - 60_000),
        endsAt: new Date(Date.now() + DAY_MS),
        priceMicro: 0n,
        feeMicro: 0n,
        trial: true,
        trialMessagesLeft: 1,
      },
    });
    await chatCalls(trial, [
      [200, 200, 9_000],
      [502, 500, 9_000],
    ]);

    await healthChecks(alpha.id, [
      [true, 1_000],
      [true, DAY_MS],
      [true, 2 * DAY_MS],
      [false, 3 * DAY_MS],
      [false, 8 * DAY_MS],
    ]);
    await healthChecks(beta.id, [
      [true, 1_000],
      [false, 2_000],
      [false, 3_000],
    ]);
    // The owner's own connection tests count in no uptime; Idle's two scheduled checks are too few.
    await healthChecks(alpha.id, [[false, 5_000]], "connect");
    await healthChecks(
      idle.id,
      [
        [false, 5_000],
        [false, 6_000],
        [false, 7_000],
      ],
      "connect",
    );
    await healthChecks(idle.id, [
      [true, 8_000],
      [true, 9_000],
    ]);

    // Another account's numbers never leak in.
    const other = await makeOwnerWithKey();
    const foreign = await makeOwnerAgent(other.accountId);
    const f1 = await makeRental(foreign.id, { status: "completed" });
    await chatCalls(f1, [[502, 500, 5]]);
    await healthChecks(foreign.id, [[false, 1_000]]);
    // Answers sold per message: Alpha's three settled ones (0.03 USDC) are revenue apart from the
    // rentals; unsettled ones and another owner's are not.
    await answersSold(alpha.id, ["settled", "settled", "settled", "unpaid", "settling", "failed"]);
    await answersSold(foreign.id, ["settled"]);

    const res = await stats(apiKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      agents: [
        {
          id: alpha.id,
          name: "Alpha",
          rentals: { total: 5, active: 1 },
          revenue: { released: 12.75, inEscrow: 102.5, perMessage: 0.03 },
          chatCalls: 6,
          trials: { started: 0, calls: 0 },
          chatCallsByChannel: { API: 4, Telegram: 2, Discord: 0, Slack: 0, WhatsApp: 0, Teams: 0, GoogleChat: 0, A2A: 0 },
          errorRate: 0.3333,
          latencyMs: { p50: 200, p95: 380 },
          uptime7d: 75,
          uptimeSource: "healthChecks",
        },
        {
          id: beta.id,
          name: "Beta",
          rentals: { total: 2, active: 0 },
          revenue: { released: 100, inEscrow: 2.5, perMessage: 0 },
          chatCalls: 3,
          trials: { started: 1, calls: 2 },
          chatCallsByChannel: { API: 2, Telegram: 0, Discord: 0, Slack: 1, WhatsApp: 0, Teams: 0, GoogleChat: 0, A2A: 0 },
          errorRate: 0.3333,
          latencyMs: { p50: 2000, p95: 2900 },
          uptime7d: 33.33,
          uptimeSource: "healthChecks",
        },
        {
          id: idle.id,
          name: "Idle",
          rentals: { total: 0, active: 0 },
          revenue: { released: 0, inEscrow: 0, perMessage: 0 },
          chatCalls: 0,
          trials: { started: 0, calls: 0 },
          chatCallsByChannel: { API: 0, Telegram: 0, Discord: 0, Slack: 0, WhatsApp: 0, Teams: 0, GoogleChat: 0, A2A: 0 },
          errorRate: 0,
          latencyMs: { p50: null, p95: null },
          uptime7d: null,
          uptimeSource: null,
        },
      ],
      // Latencies of all 7 calls that reached a webhook: 50 100 200 300 400 1000 3000.
      total: {
        rentals: { total: 7, active: 1 },
        revenue: { released: 112.75, inEscrow: 105, perMessage: 0.03 },
        chatCalls: 9,
        trials: { started: 1, calls: 2 },
        chatCallsByChannel: { API: 6, Telegram: 2, Discord: 0, Slack: 1, WhatsApp: 0, Teams: 0, GoogleChat: 0, A2A: 0 },
        errorRate: 0.3333,
        latencyMs: { p50: 300, p95: 2400 },
        uptime7d: 66.67, // 6 of 9 scheduled checks: Alpha 3 of 4, Beta 1 of 3, Idle 2 of 2
        uptimeSource: "healthChecks",
      },
    });
  });

  it("200: zeros and nulls for an account without agents", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const res = await stats(apiKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      agents: [],
      total: {
        rentals: { total: 0, active: 0 },
        revenue: { released: 0, inEscrow: 0, perMessage: 0 },
        chatCalls: 0,
        trials: { started: 0, calls: 0 },
        chatCallsByChannel: { API: 0, Telegram: 0, Discord: 0, Slack: 0, WhatsApp: 0, Teams: 0, GoogleChat: 0, A2A: 0 },
        errorRate: 0,
        latencyMs: { p50: null, p95: null },
        uptime7d: null,
        uptimeSource: null,
      },
    });
  });

  it("200: uptime from the rentals' minutes, measured every minute, once an agent was rented an hour in the 7 days", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const rented = await makeOwnerAgent(accountId, { listing: { name: "Rented" } });
    const checked = await makeOwnerAgent(accountId, { listing: { name: "Checked" } });
    // Two ended hours, 30 of their 120 minutes down (the second's last 30), all checks passed:
    // the minutes win.
    await makeRental(rented.id, { durationType: "hour", status: "completed", startsInSeconds: -3 * 3600, endsInSeconds: -2 * 3600 });
    const second = await makeRental(rented.id, { durationType: "hour", startsInSeconds: -2 * 3600, endsInSeconds: -3600 });
    await db.rental.update({ where: { id: second.id }, data: { minutesMeasured: [0, 60], minutesDown: [30, 60] } });
    await healthChecks(rented.id, [
      [true, 1_000],
      [true, 2_000],
      [true, 3_000],
    ]);
    await healthChecks(checked.id, [
      [true, 1_000],
      [false, 2_000],
      [false, 3_000],
      [false, 4_000],
    ]);
    const body = await (await stats(apiKey)).json();
    expect(body.agents.map((a: { uptime7d: number; uptimeSource: string }) => [a.uptime7d, a.uptimeSource])).toEqual([
      [75, "rentalMinutes"],
      [25, "healthChecks"],
    ]);
    // The account's 120 rented minutes decide its total too.
    expect([body.total.uptime7d, body.total.uptimeSource]).toEqual([75, "rentalMinutes"]);
  });

  it("revenue is summed exactly in micro-USDC (no float drift over many rentals)", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId, { listing: { pricePerHour: 0.1 } });
    for (let i = 0; i < 3; i++) await makeRental(agent.id, { status: "completed", durationType: "hour" });
    const body = await (await stats(apiKey)).json();
    expect(body.total.revenue.released).toBe(0.3); // 0.1 + 0.1 + 0.1 in floats is 0.30000000000000004
  });

  it("401: without a valid key", async () => {
    expect((await stats()).status).toBe(401);
    expect((await stats("rck_0000000000000000000000000000")).status).toBe(401);
  });

  it("405 for POST", async () => {
    const res = POST();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/GET/);
  });
});
