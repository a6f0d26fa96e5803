import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSigningSecret, sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { refundFor, slaHash } from "@/lib/availability/availability-terms";
import { loadAvailability } from "@/lib/availability/load-availability";
import { addMinutes, countMinutes, listMinutes } from "@/lib/availability/minute-runs";
import { type ProbeOptions, probeRentals } from "@/lib/availability/probe-rentals";
import { recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import type { DurationType, RentalStatus } from "@/lib/generated/prisma/enums";
import { DURATION_SECONDS } from "@/lib/rentals/durations";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

// Every round is limited to this file's agents (agentIds): other test files share the database.
// Time is given, never waited for: each round gets its `now`, and the rentals sit at T0, a minute
// boundary 40 days ahead (no other code sees them running). An agent is claimed once per
// wall-clock minute, so within a test the rounds' `now` only moves forward.
const MINUTE = 60_000;
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE + 40 * 86_400_000;
const at = (minute: number, seconds = 5) => new Date(T0 + minute * MINUTE + seconds * 1000);

type Answer = "ok" | "500" | "hang";
// What the webhook answers, per agent (default 200); a hanging request is never answered.
const answers = new Map<string, Answer>();
const token = randomBytes(24).toString("base64url");
let hook: Awaited<ReturnType<typeof startWebhook>>;
let closedUrl: string;

beforeAll(async () => {
  hook = await startWebhook((req, res: ServerResponse) => {
    const answer = answers.get(JSON.parse(req.body).agentId) ?? "ok";
    if (answer === "hang") return;
    res.writeHead(answer === "500" ? 500 : 200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks/agent`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(() => hook.close());

async function rentedAgent() {
  const signingSecret = newSigningSecret();
  const agent = await makeAgent({
    webhook: { url: hook.url, token, signingSecret },
    listing: { name: `Probe ${randomBytes(4).toString("hex")}` },
  });
  return { ...agent, signingSecret };
}

/** A rental of the agent from `startsAt` for one period, in the given state. */
async function rentalAt(agentId: string, startsAt: number, durationType: DurationType = "hour", status: RentalStatus = "active") {
  const rental = await makeRental(agentId, { durationType, status });
  return db.rental.update({
    where: { id: rental.id },
    data: { startsAt: new Date(startsAt), endsAt: new Date(startsAt + DURATION_SECONDS[durationType] * 1000) },
  });
}

const probe = (agents: { id: string }[], now: Date, options: ProbeOptions = {}) =>
  probeRentals({ agentIds: agents.map((a) => a.id), now, ...options });
const recordOf = (id: string) =>
  db.rental.findUniqueOrThrow({ where: { id }, select: { minutesMeasured: true, minutesDown: true, callsCheckedUntil: true } });
const checksFor = (agentId: string) => hook.received.filter((r) => JSON.parse(r.body).agentId === agentId);
const pointAt = (agent: { id: string; signingSecret: string }, url: string) =>
  db.agent.update({ where: { id: agent.id }, data: sealWebhookCredentials(agent.id, { url, token, signingSecret: agent.signingSecret }) });
const insertCalls = (rental: { id: string; agentId: string }, calls: [minute: number, second: number, statusCode: number][]) =>
  db.chatCall.createMany({
    data: calls.map(([minute, second, statusCode]) => ({
      rentalId: rental.id,
      agentId: rental.agentId,
      statusCode,
      webhookStatus: statusCode >= 500 ? 500 : 200,
      latencyMs: 12,
      requestBytes: 40,
      responseBytes: 80,
      createdAt: at(minute, second),
    })),
  });

describe("probeRentals", () => {
  it("a 60-minute rental probed every minute: exactly the minutes whose probe failed are down, all 60 measured", {
    timeout: 60_000,
  }, async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0);
    // 500 at 7 and 8, a hang past the timeout at 20 and 41, connection refused at 33 and 59.
    const failing = new Map<number, Answer | "refused">([
      [7, "500"],
      [8, "500"],
      [20, "hang"],
      [33, "refused"],
      [41, "hang"],
      [59, "refused"],
    ]);
    for (let minute = 0; minute < 60; minute++) {
      const failure = failing.get(minute);
      answers.set(agent.id, failure === "500" || failure === "hang" ? failure : "ok");
      if (failure === "refused") await pointAt(agent, closedUrl);
      // Only a hanging round gets a short timeout: a healthy answer never races it.
      const summary = await probe([agent], at(minute), failure === "hang" ? { timeoutMs: 200 } : {});
      if (failure === "refused") await pointAt(agent, hook.url);
      expect(summary).toMatchObject({ probed: 1, up: failure ? 0 : 1, down: failure ? 1 : 0, rentals: 1 });
    }
    answers.delete(agent.id);

    const down = [...failing.keys()];
    expect(await recordOf(rental.id)).toEqual({
      minutesMeasured: [0, 60],
      minutesDown: [7, 9, 20, 21, 33, 34, 41, 42, 59, 60],
      // Each round brought the calls rule up to its minute.
      callsCheckedUntil: 59,
    });
    expect(checksFor(agent.id)).toHaveLength(60 - 2); // the refused two never arrived

    const terms = (await loadAvailability([rental.id], at(61))).get(rental.id)!;
    const downStarts = down.map((m) => new Date(T0 + m * MINUTE));
    expect(terms).toEqual({
      minutesTotal: 60,
      minutesElapsed: 60,
      minutesMeasured: 60,
      minutesDown: 6,
      downMinutes: downStarts,
      uptimeBasisPoints: 9_000,
      guaranteePermille: 990,
      // An hour at 99 % allows no down minute: 6 of 60 are refunded.
      refundMicro: (rental.priceMicro * 6n) / 60n,
      slaHash: slaHash(downStarts),
    });
    expect(terms.refundMicro).toBe(refundFor(rental, 60, 6));
    expect(terms.refundMicro).toBeGreaterThan(0n);
  });

  it("sends one signed health_check per agent per minute, however many rentals and rounds, and records it for every rental", async () => {
    const agent = await rentedAgent();
    const first = await rentalAt(agent.id, T0);
    // The second does not start on a minute boundary: its minute 4 is [10:30, 11:30) past its start.
    const second = await rentalAt(agent.id, T0 + 10 * MINUTE + 30_000);

    let ms = 0;
    const clock = () => (ms += 250); // the summary's duration on a clock of the test's own
    expect(await probe([agent], at(15, 0), { clock })).toMatchObject({ probed: 1, up: 1, down: 0, rentals: 2, durationMs: 250 });
    expect(await probe([agent], at(15, 20))).toMatchObject({ probed: 0, rentals: 0 });
    expect(await probe([agent], at(15, 59.999))).toMatchObject({ probed: 0, rentals: 0 });
    expect(checksFor(agent.id)).toHaveLength(1);
    expect(await recordOf(first.id)).toMatchObject({ minutesMeasured: [15, 16], minutesDown: [] });
    expect(await recordOf(second.id)).toMatchObject({ minutesMeasured: [4, 5], minutesDown: [] });

    // Three rounds at once in the next minute: one of them probes.
    const rounds = await Promise.all([at(16, 1), at(16, 2), at(16, 3)].map((now) => probe([agent], now)));
    expect(rounds.map((r) => r.probed).sort()).toEqual([0, 0, 1]);
    expect(rounds.reduce((sum, r) => sum + r.rentals, 0)).toBe(2);
    expect(checksFor(agent.id)).toHaveLength(2);
    expect(await recordOf(first.id)).toMatchObject({ minutesMeasured: [15, 17] });
    expect(await recordOf(second.id)).toMatchObject({ minutesMeasured: [4, 6] });

    for (const sent of checksFor(agent.id)) {
      expect(sent.method).toBe("POST");
      expect(sent.headers).toMatchObject({ "x-health-check": "true", authorization: `Bearer ${token}` });
      // Standard Webhooks: verifies with the agent's signing secret, and with no other.
      const headers = sent.headers as Record<string, string>;
      expect(new Webhook(agent.signingSecret).verify(sent.body, headers)).toMatchObject({ type: "health_check", agentId: agent.id });
      expect(() => new Webhook(newSigningSecret()).verify(sent.body, headers)).toThrow();
    }
    const ids = checksFor(agent.id).map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(2);
  });

  it("the half-of-calls rule: a minute whose probe passed is down when at least half its calls failed with a 5xx", async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0);
    await insertCalls(rental, [
      // minute 1: 2 of 4 failed → down
      [1, 3, 502],
      [1, 10, 200],
      [1, 40, 504],
      [1, 59, 200],
      // minute 2: 1 of 3 failed → up
      [2, 0, 500],
      [2, 30, 200],
      [2, 31, 200],
      // minute 3: refusals of the service's own are no failures → up
      [3, 1, 429],
      [3, 2, 429],
      [3, 3, 401],
      [3, 4, 401],
      // minute 4: 1 of 2 failed, the other a 429 → down (half)
      [4, 10, 503],
      [4, 20, 429],
      // minute 6, when no round ran: 2 of 2 failed → measured and down
      [6, 15, 502],
      [6, 16, 502],
      // minute 7, when no round ran: calls that passed → measured, up
      [7, 0, 200],
    ]);
    for (const minute of [0, 1, 2, 3, 4, 5]) expect(await probe([agent], at(minute))).toMatchObject({ probed: 1, up: 1 });
    // The round at minute 5 applied the rule to minutes 0–4, which have ended.
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [0, 6], minutesDown: [1, 2, 4, 5], callsCheckedUntil: 5 });

    // The service was down for minutes 6–8; the round at 9 finds their calls.
    expect(await probe([agent], at(9))).toMatchObject({ probed: 1, up: 1 });
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [0, 8, 9, 10], minutesDown: [1, 2, 4, 5, 6, 7], callsCheckedUntil: 9 });
    const terms = (await loadAvailability([rental.id], at(9, 30))).get(rental.id)!;
    expect(terms).toMatchObject({ minutesElapsed: 10, minutesMeasured: 9, minutesDown: 3, uptimeBasisPoints: 7_000 });
  });

  it("minutes no round probed (the service was down) stay unmeasured and count as up", async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0);
    // No rounds at 20–39; the webhook fails at 5.
    for (const minute of [...Array(20).keys(), ...Array.from({ length: 20 }, (_, i) => 40 + i)]) {
      answers.set(agent.id, minute === 5 ? "500" : "ok");
      await probe([agent], at(minute));
    }
    answers.delete(agent.id);
    expect(await recordOf(rental.id)).toMatchObject({ minutesMeasured: [0, 20, 40, 60], minutesDown: [5, 6] });
    const terms = (await loadAvailability([rental.id], at(60, 30))).get(rental.id)!;
    expect(terms).toMatchObject({
      minutesElapsed: 60,
      minutesMeasured: 40,
      minutesDown: 1,
      // 59 of 60 up: the 20 unmeasured minutes are up.
      uptimeBasisPoints: Math.floor((10_000 * 59) / 60),
      refundMicro: rental.priceMicro / 60n,
    });
  });

  it("an agent with no webhook connected while rented: its minutes are down", async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0);
    await probe([agent], at(0));
    await db.agent.update({
      where: { id: agent.id },
      data: { webhookUrlCipher: null, webhookTokenCipher: null, webhookSigningSecretCipher: null },
    });
    expect(await probe([agent], at(1))).toMatchObject({ probed: 1, up: 0, down: 1, rentals: 1 });
    expect(await probe([agent], at(2))).toMatchObject({ probed: 1, down: 1 });
    expect(await recordOf(rental.id)).toMatchObject({ minutesMeasured: [0, 3], minutesDown: [1, 3] });
    expect(checksFor(agent.id)).toHaveLength(1);
  });

  it("a probe the service could not make itself (credentials under a key it no longer holds) is no result: the minute stays unmeasured, so up", async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0);
    await db.agent.update({ where: { id: agent.id }, data: { webhookUrlCipher: "v1:retired-key:not-a-ciphertext" } });
    expect(await probe([agent], at(3))).toMatchObject({ probed: 1, up: 0, down: 0, unmeasured: 1, rentals: 0 });
    expect(checksFor(agent.id)).toHaveLength(0);
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [], minutesDown: [], callsCheckedUntil: 0 });
  });

  it("never probes or records a rental that is not running: pending, completed, cancelled, not started, ended", async () => {
    const idle = await rentedAgent();
    const notRunning = await Promise.all([
      rentalAt(idle.id, T0, "hour", "pending"),
      rentalAt(idle.id, T0, "hour", "completed"),
      rentalAt(idle.id, T0, "hour", "cancelled"),
      rentalAt(idle.id, T0 + 31 * MINUTE), // starts after the round
      rentalAt(idle.id, T0 - 60 * MINUTE), // ended at T0
    ]);
    expect(await probe([idle], at(30))).toMatchObject({ probed: 0, up: 0, down: 0, rentals: 0 });
    expect(checksFor(idle.id)).toHaveLength(0);
    expect((await db.agent.findUniqueOrThrow({ where: { id: idle.id } })).probedMinute).toBeNull();

    // An agent that is probed records the round for its running rental only.
    const busy = await rentedAgent();
    const running = await rentalAt(busy.id, T0, "day", "disputed");
    const others = await Promise.all([
      rentalAt(busy.id, T0, "hour", "pending"),
      rentalAt(busy.id, T0, "hour", "completed"),
      rentalAt(busy.id, T0 + 31 * MINUTE),
      rentalAt(busy.id, T0 - 60 * MINUTE),
    ]);
    expect(await probe([busy], at(30))).toMatchObject({ probed: 1, up: 1, rentals: 1 });
    expect(await recordOf(running.id)).toMatchObject({ minutesMeasured: [30, 31] });
    for (const rental of [...notRunning, ...others]) {
      expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [], minutesDown: [], callsCheckedUntil: 0 });
    }
  });

  it("a month rental keeps compact run lists: 30 outages over the month, counts exact, a few hundred bytes stored", {
    timeout: 60_000,
  }, async () => {
    const agent = await rentedAgent();
    const rental = await rentalAt(agent.id, T0, "month");
    const total = 43_200;
    // Outages of 1–37 minutes at spread offsets (a fixed pattern, reproducible), some back to back.
    const outages: [from: number, length: number][] = Array.from({ length: 27 }, (_, i) => [
      700 + i * 1_571 + ((i * 389) % 600),
      1 + ((i * 13) % 37),
    ]);
    outages.push([20_000, 5], [20_005, 3], [43_190, 10]); // adjacent runs, and the month's last minutes
    const down = new Set(outages.flatMap(([from, length]) => Array.from({ length }, (_, k) => from + k)));
    // The service itself was down for five stretches: those minutes were never measured.
    const serviceGaps: [number, number][] = [
      [3_000, 3_090],
      [9_999, 10_000],
      [25_000, 25_720],
      [31_000, 31_004],
      [40_000, 40_060],
    ];
    const unmeasured = (m: number) => serviceGaps.some(([from, to]) => m >= from && m < to) && !down.has(m);
    const month = [...Array(total).keys()];

    // A day of facts at a time, as rounds and reads would have recorded them.
    for (let day = 0; day < 30; day++) {
      const minutes = Array.from({ length: 1_440 }, (_, k) => day * 1_440 + k);
      await recordMinutes([
        { rentalId: rental.id, measured: minutes.filter((m) => !unmeasured(m)), down: minutes.filter((m) => down.has(m)) },
      ]);
    }
    // And three rounds of the probe: a failed one in a service gap, a failed one and a passing one.
    answers.set(agent.id, "500");
    expect(await probe([agent], at(9_999, 30))).toMatchObject({ probed: 1, down: 1 });
    expect(await probe([agent], at(30_000))).toMatchObject({ probed: 1, down: 1 });
    answers.delete(agent.id);
    expect(await probe([agent], at(30_001))).toMatchObject({ probed: 1, up: 1 });
    down.add(9_999).add(30_000);
    const measuredCount = month.filter((m) => !unmeasured(m) || m === 9_999).length;

    const record = await recordOf(rental.id);
    const expectedDown = [...down].sort((a, b) => a - b);
    expect(listMinutes(record.minutesDown)).toEqual(expectedDown);
    expect(record.minutesDown).toEqual(addMinutes([], expectedDown));
    // One run per stretch of down minutes (the back-to-back outages are one), two integers each.
    expect(record.minutesDown.length / 2).toBe(expectedDown.filter((m) => !down.has(m - 1)).length);
    expect(countMinutes(record.minutesMeasured)).toBe(measuredCount);
    expect(listMinutes(record.minutesMeasured)).toEqual(month.filter((m) => !unmeasured(m) || m === 9_999));

    const [{ bytes }] = await db.$queryRaw<{ bytes: number }[]>`
      SELECT (pg_column_size(minutes_down) + pg_column_size(minutes_measured))::int AS bytes FROM rentals WHERE id = ${rental.id}::uuid`;
    // About 40 runs of two 4-byte integers, and two array headers; a bitmap of the month would be 5,400 bytes.
    expect(record.minutesDown.length + record.minutesMeasured.length).toBeLessThan(80);
    expect(bytes).toBeLessThan(400);

    const terms = (await loadAvailability([rental.id], new Date(T0 + total * MINUTE + 2 * MINUTE))).get(rental.id)!;
    expect(terms).toMatchObject({ minutesTotal: total, minutesElapsed: total, minutesMeasured: measuredCount, minutesDown: down.size });
    // 99 % of a month allows 432 down minutes.
    expect(down.size).toBeGreaterThan(432);
    expect(terms.refundMicro).toBe((rental.priceMicro * BigInt(down.size - 432)) / BigInt(total));
    expect(terms.slaHash).toBe(slaHash(expectedDown.map((m) => new Date(T0 + m * MINUTE))));
  });
});
