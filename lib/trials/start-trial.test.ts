// Starting free trials (issue 29) against the real database, on an injected clock: one per
// account per agent, ever; at most 3 a day per account and 50 a day per client address, exact
// under concurrency; trials stay out of the marketplace's rental counts.
import { describe, expect, it } from "vitest";
import { deleteAgent } from "@/lib/agents/delete-agent";
import { listAgentRentals } from "@/lib/agents/list-agent-rentals";
import { updateAgent } from "@/lib/agents/update-agent";
import { db } from "@/lib/db";
import { saveDisputeClaim } from "@/lib/disputes/save-dispute-claim";
import { rateRental } from "@/lib/rentals/rate-rental";
import { completeEndedTrials } from "@/lib/trials/complete-ended-trials";
import { findTrial, startTrial, TrialRefused } from "@/lib/trials/start-trial";
import { makeAgent, makeOwnerAgent, makeRental, uniqueIp } from "@/test/fixtures";
import { makeRenterAccount } from "@/test/renter-fixtures";

const webhook = { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) };
const HOUR = 3_600_000;
const trialAgent = (trialMessages = 5) => makeAgent({ listing: { trialMessages }, webhook });

async function refusal(promise: Promise<unknown>): Promise<TrialRefused> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TrialRefused);
  return error as TrialRefused;
}

describe("startTrial", () => {
  it("makes an active, unpaid rental with the listing's messages; a second request returns the same trial", async () => {
    const agent = await trialAgent(7);
    const renter = await makeRenterAccount({ email: true });
    const now = new Date("2026-11-26T10:00:00.000Z");
    const first = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() }, now);
    expect(first.created).toBe(true);
    const row = await db.rental.findUniqueOrThrow({ where: { id: first.trial.id } });
    expect(row).toMatchObject({
      status: "active",
      trial: true,
      trialMessagesLeft: 7,
      priceMicro: 0n,
      feeMicro: 0n,
      renterId: renter.id,
      createTxHash: null,
      renterAddress: null,
      startsAt: now,
      endsAt: new Date(now.getTime() + 30 * 24 * HOUR),
    });
    expect(row.trialClient).toMatch(/^[0-9a-f]{64}$/);

    const again = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() }, new Date(now.getTime() + HOUR));
    expect(again).toEqual({ trial: first.trial, created: false });
    expect(await findTrial(renter.id, agent.id)).toEqual(first.trial);
  });

  it("one per account per agent ever: the same trial even after it is used up and the offer was ended and made again", async () => {
    const { agent, ownerId } = await (async () => {
      const owner = await makeRenterAccount({ email: true });
      return { agent: await makeOwnerAgent(owner.id, { listing: { trialMessages: 2 }, webhook }), ownerId: owner.id };
    })();
    const renter = await makeRenterAccount({ wallet: true });
    const { trial } = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
    await updateAgent(ownerId, agent.id, { trialMessages: null });
    await updateAgent(ownerId, agent.id, { trialMessages: 10 });
    const again = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
    expect(again.created).toBe(false);
    expect(again.trial.id).toBe(trial.id);
    // Ending the offer took the messages it had left.
    expect(again.trial.trialMessagesLeft).toBe(0);
  });

  it("concurrent requests of one account for one agent make one trial", async () => {
    const agent = await trialAgent();
    const renter = await makeRenterAccount({ email: true });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() })),
    );
    expect(new Set(results.map((r) => r.trial.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await db.rental.count({ where: { agentId: agent.id, trial: true } })).toBe(1);
  });

  it("refuses a listing without a trial (409), an offline or unconnected one (409) and an unknown agent (404)", async () => {
    const renter = await makeRenterAccount({ email: true });
    const start = (agentId: string) => startTrial({ accountId: renter.id, agentId, client: uniqueIp() });
    const none = await makeAgent({ webhook });
    expect(await refusal(start(none.id))).toMatchObject({ reason: "no-offer", status: 409 });
    const unconnected = await makeAgent({ listing: { trialMessages: 3 } });
    expect(await refusal(start(unconnected.id))).toMatchObject({ reason: "unavailable", status: 409 });
    const offline = await trialAgent();
    await db.agent.update({ where: { id: offline.id }, data: { status: "offline" } });
    expect(await refusal(start(offline.id))).toMatchObject({ reason: "unavailable", status: 409 });
    expect(await refusal(start("00000000-0000-4000-8000-000000000000"))).toMatchObject({ reason: "no-agent", status: 404 });
    expect(await db.rental.count({ where: { renterId: renter.id } })).toBe(0);
  });

  it("at most 3 a day per account: the 4th within 24 hours is refused with when the next may start; 24 hours after the first it may", async () => {
    const agents = await Promise.all([1, 2, 3, 4, 5].map(() => trialAgent()));
    const renter = await makeRenterAccount({ email: true });
    const t0 = new Date("2026-11-20T08:00:00.000Z");
    const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);
    const start = (i: number, when: Date) => startTrial({ accountId: renter.id, agentId: agents[i].id, client: uniqueIp() }, when);
    await start(0, at(0));
    await start(1, at(1));
    await start(2, at(2));
    const refused = await refusal(start(3, at(23)));
    expect(refused.status).toBe(429);
    expect(refused.reason).toBe("account-day-limit");
    expect(refused.message).toBe(
      "You have started 3 free trials in the last 24 hours, the most one account may; the next one can start at 2026-11-21T08:00:00.000Z.",
    );
    expect(refused.headers["Retry-After"]).toBe(String(3_600));
    // The trial already had is still shown, limits or not.
    expect((await start(0, at(23))).created).toBe(false);
    // Exactly 24 hours after the first, it has left the day.
    expect((await start(3, at(24))).created).toBe(true);
    expect((await refusal(start(4, at(24.5)))).reason).toBe("account-day-limit");
  });

  it("at most 3 a day per account under a concurrent burst across agents", async () => {
    const agents = await Promise.all(Array.from({ length: 6 }, () => trialAgent()));
    const renter = await makeRenterAccount({ wallet: true });
    const results = await Promise.allSettled(
      agents.map((agent) => startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as TrialRefused] : []));
    expect(refused.map((e) => e.reason)).toEqual(["account-day-limit", "account-day-limit", "account-day-limit"]);
    expect(await db.rental.count({ where: { renterId: renter.id, trial: true } })).toBe(3);
  });

  it("at most 50 a day per client address across agents and accounts, counted exactly; another address is not affected", async () => {
    const agents = await Promise.all([1, 2, 3].map(() => trialAgent()));
    const renters = await Promise.all(Array.from({ length: 17 }, () => makeRenterAccount({ email: true })));
    const ip = uniqueIp();
    const now = new Date("2026-11-22T12:00:00.000Z");
    const outcomes: string[] = [];
    for (const renter of renters) {
      for (const agent of agents) {
        try {
          await startTrial({ accountId: renter.id, agentId: agent.id, client: ip }, now);
          outcomes.push("ok");
        } catch (error) {
          outcomes.push((error as TrialRefused).reason);
        }
      }
    }
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(50);
    expect(outcomes.at(-1)).toBe("client-day-limit");
    const last = await refusal(startTrial({ accountId: renters[16].id, agentId: agents[2].id, client: ip }, now));
    expect(last.message).toBe(
      "50 free trials were started from your network address in the last 24 hours, the most one address may; the next one can start at 2026-11-23T12:00:00.000Z.",
    );
    expect((await startTrial({ accountId: renters[16].id, agentId: agents[2].id, client: uniqueIp() }, now)).created).toBe(true);
  });

  it("a listing whose only history is trials can still be deleted; its trials go with it", async () => {
    const owner = await makeRenterAccount({ email: true });
    const agent = await makeOwnerAgent(owner.id, { listing: { trialMessages: 2 }, webhook });
    const renter = await makeRenterAccount({ email: true });
    const { trial } = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
    await deleteAgent(owner.id, agent.id);
    expect(await db.rental.findUnique({ where: { id: trial.id } })).toBeNull();
    expect(await db.agent.findUnique({ where: { id: agent.id } })).toBeNull();
  });

  it("a trial ends quietly 30 days after it started (completed, no e-mail or notification); it cannot be rated", async () => {
    const agent = await trialAgent();
    const renter = await makeRenterAccount({ email: true });
    const t0 = new Date("2026-10-01T00:00:00.000Z");
    const { trial } = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() }, t0);
    await expect(rateRental(renter, trial.id, { score: 5 })).rejects.toMatchObject({
      status: 409,
      message: "A free trial cannot be rated; ratings come from paid rentals.",
    });
    await completeEndedTrials(new Date(t0.getTime() + 30 * 24 * HOUR - 1));
    expect((await db.rental.findUniqueOrThrow({ where: { id: trial.id } })).status).toBe("active");
    expect(await completeEndedTrials(new Date(t0.getTime() + 30 * 24 * HOUR))).toBeGreaterThanOrEqual(1);
    expect((await db.rental.findUniqueOrThrow({ where: { id: trial.id } })).status).toBe("completed");
    expect(await db.notification.count({ where: { accountId: renter.id } })).toBe(0);
  });

  it("a trial cannot be disputed: nothing was paid", async () => {
    const agent = await trialAgent();
    const renter = await makeRenterAccount({ wallet: true });
    const { trial } = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
    await expect(saveDisputeClaim(renter, trial.id, { reason: "not_responding" })).rejects.toMatchObject({
      status: 409,
      message: "A free trial cannot be disputed: nothing was paid for it (docs/trials.md).",
    });
  });

  it("trials are left out of the listing's rental count; paid rentals still count", async () => {
    const agent = await trialAgent();
    const count = async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).rentalCount;
    for (let i = 0; i < 3; i++) {
      const renter = await makeRenterAccount({ email: true });
      await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
    }
    expect(await count()).toBe(0);
    const paid = await makeRental(agent.id);
    expect(await count()).toBe(1);
    // The owner's list of the listing's rentals shows the paid one only.
    const { rentals, total } = await listAgentRentals(agent.id);
    expect([total, rentals.map((r) => r.ref)]).toEqual([1, [paid.ref]]);
  });
});
