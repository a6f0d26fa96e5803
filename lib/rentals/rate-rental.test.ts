// The rating rules on the real database, and that ratings reach the marketplace figures.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAgentViews, loadListingStats } from "@/lib/agents/load-agent-views";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { db } from "@/lib/db";
import { rateRental } from "@/lib/rentals/rate-rental";
import { parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { makeAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

type Agent = Awaited<ReturnType<typeof makeAgent>>;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Renter Dash ${hex(4)}` } });
});

describe("rateRental", () => {
  it("saves 1–5 stars with a trimmed comment, once per rental", async () => {
    const me = await makeRenterAccount();
    const rental = await rentalOf(agent, me);
    const saved = await rateRental(me, rental.id, { score: "5", comment: "  Great agent.  " });
    expect(saved).toMatchObject({ rentalId: rental.id, agentId: agent.id, score: 5, comment: "Great agent." });

    await expect(rateRental(me, rental.id, { score: 3 })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/already rated/),
    });
    expect(await db.rating.count({ where: { rentalId: rental.id } })).toBe(1);
  });

  it("lets exactly one of two racing submissions in", async () => {
    const me = await makeRenterAccount();
    const rental = await rentalOf(agent, me);
    const results = await Promise.allSettled([rateRental(me, rental.id, { score: 2 }), rateRental(me, rental.id, { score: 3 })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ status: 409, message: expect.stringMatching(/already rated/) });
  });

  it("refuses scores outside 1–5, fractions, non-numbers and over-long comments (400, in words)", async () => {
    const me = await makeRenterAccount();
    const rental = await rentalOf(agent, me);
    for (const score of [0, 6, -1, 2.5, "abc", "", undefined, null]) {
      await expect(rateRental(me, rental.id, { score: score as never }), String(score)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/1 to 5/),
      });
    }
    await expect(rateRental(me, rental.id, { score: 4, comment: "x".repeat(1001) })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/1,000 characters/),
    });
    expect(await db.rating.count({ where: { rentalId: rental.id } })).toBe(0);

    // 1,000 characters after trimming is fine; a blank comment is stored as none.
    const ok = await rateRental(me, rental.id, { score: 1, comment: `  ${"y".repeat(1000)}  ` });
    expect(ok.comment).toHaveLength(1000);
    const blank = await rateRental(me, (await rentalOf(agent, me)).id, { score: 5, comment: "   " });
    expect(blank.comment).toBeNull();
  });

  it("refuses someone else's rental, a pending one and unknown ids (404) without revealing them", async () => {
    const me = await makeRenterAccount();
    const other = await makeRenterAccount();
    const theirs = await rentalOf(agent, other);
    const pending = await rentalOf(agent, me, { status: "pending" });
    for (const id of [theirs.id, pending.id, "00000000-0000-4000-8000-000000000000", "nope"]) {
      await expect(rateRental(me, id, { score: 5 }), id).rejects.toMatchObject({
        status: 404,
        message: expect.stringMatching(/not in your account/),
      });
    }
    expect(await db.rating.count({ where: { rentalId: { in: [theirs.id, pending.id] } } })).toBe(0);
  });

  it("rates only rentals that have started: not future ones, not cancelled ones", async () => {
    const me = await makeRenterAccount();
    const future = await rentalOf(agent, me, { startsInSeconds: 3600 });
    await expect(rateRental(me, future.id, { score: 5 })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/not started/),
    });
    const cancelled = await rentalOf(agent, me, { status: "cancelled" });
    await expect(rateRental(me, cancelled.id, { score: 5 })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/cancelled/),
    });
    for (const status of ["active", "completed", "disputed"] as const) {
      const rental = await rentalOf(agent, me, { status, startsInSeconds: -600 });
      await expect(rateRental(me, rental.id, { score: 4 })).resolves.toMatchObject({ score: 4 });
    }
  });

  it("counts in the agent's rating on the marketplace and in owner views", async () => {
    const rated = await makeAgent({
      listing: { name: `Rated ${hex(6)}` },
      webhook: { url: "http://127.0.0.1:9/hook", token: "t".repeat(32) },
    });
    const me = await makeRenterAccount();
    const you = await makeRenterAccount();
    await rateRental(me, (await rentalOf(rated, me)).id, { score: 5 });
    await rateRental(you, (await rentalOf(rated, you)).id, { score: 4, comment: "Good" });

    expect((await loadListingStats([rated.id])).get(rated.id)!.rating).toEqual({ average: 4.5, count: 2 });
    const [view] = await loadAgentViews([rated]);
    expect(view.rating).toEqual({ average: 4.5, count: 2 });
    const result = await searchMarketplace(parseMarketplaceQuery({ q: rated.name }));
    const listed = result.agents.find((a) => a.id === rated.id);
    expect(listed?.rating).toEqual({ average: 4.5, count: 2 });

    // The "Highest rated" sort reads the same ratings.
    const sorted = await searchMarketplace(parseMarketplaceQuery({ q: rated.name, sort: "rating" }));
    expect(sorted.agents[0].id).toBe(rated.id);
  });
});
