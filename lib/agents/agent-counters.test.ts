// The counters the database keeps on each agent (migration 20261125150000_agent_counters) always
// equal a recount, whatever happens to rentals and ratings: inserts, status changes in and out of
// "awaiting payment", deletes, moves, rating edits.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

async function counters(agentId: string) {
  return db.agent.findUniqueOrThrow({ where: { id: agentId }, select: { rentalCount: true, ratingCount: true, ratingSum: true } });
}

async function recount(agentId: string) {
  const [rentals, ratings] = await Promise.all([
    db.rental.count({ where: { agentId, status: { not: "pending" } } }),
    db.rating.aggregate({ where: { agentId }, _count: { _all: true }, _sum: { score: true } }),
  ]);
  return { rentalCount: rentals, ratingCount: ratings._count._all, ratingSum: ratings._sum.score ?? 0 };
}

describe("agent counters", () => {
  it("follow rentals and ratings through every change", async () => {
    const agent = await makeAgent();
    const other = await makeAgent();
    const check = async () => {
      expect(await counters(agent.id)).toEqual(await recount(agent.id));
      expect(await counters(other.id)).toEqual(await recount(other.id));
    };
    const pending = await makeRental(agent.id, { status: "pending" });
    const active = await makeRental(agent.id);
    const done = await makeRental(agent.id, { status: "completed" });
    await check();
    expect(await counters(agent.id)).toMatchObject({ rentalCount: 2 });

    await db.rental.update({ where: { id: pending.id }, data: { status: "active" } }); // paid
    await db.rental.update({ where: { id: active.id }, data: { status: "disputed" } }); // not a change of count
    await db.rental.update({ where: { id: done.id }, data: { agentId: other.id } }); // moved
    await check();
    expect(await counters(agent.id)).toMatchObject({ rentalCount: 2 });

    await db.rating.create({ data: { rentalId: active.id, agentId: agent.id, score: 5 } });
    await db.rating.create({ data: { rentalId: pending.id, agentId: agent.id, score: 2 } });
    await db.rating.update({ where: { rentalId: pending.id }, data: { score: 3 } });
    await check();
    expect(await counters(agent.id)).toMatchObject({ ratingCount: 2, ratingSum: 8 });

    await db.rental.delete({ where: { id: pending.id } }); // cascades to its rating
    await check();
    expect(await counters(agent.id)).toEqual({ rentalCount: 1, ratingCount: 1, ratingSum: 5 });
  });
});
