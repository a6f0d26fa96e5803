// An owner key is scoped to its account: every endpoint, asked about another account's agent,
// answers as if it did not exist, and changes nothing.
import { describe, expect, it } from "vitest";
import { POST as CONNECT } from "@/app/api/public/agents/[id]/connect/route";
import { DELETE, GET as GET_AGENT, PATCH } from "@/app/api/public/agents/[id]/route";
import { GET as LIST } from "@/app/api/public/agents/route";
import { GET as STATS } from "@/app/api/public/stats/route";
import { db } from "@/lib/db";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, segment } from "@/test/fixtures";

describe("cross-account isolation on /api/public", () => {
  it("a key of account A can neither read, change, connect, delete nor see stats of B's agents", async () => {
    const a = await makeOwnerWithKey();
    const b = await makeOwnerWithKey();
    const mine = await makeOwnerAgent(a.accountId, { listing: { name: "Mine" } });
    const theirs = await makeOwnerAgent(b.accountId, { listing: { name: "Theirs" } });
    await makeRental(theirs.id, { status: "completed" });
    const before = await db.agent.findUniqueOrThrow({ where: { id: theirs.id } });
    const key = a.apiKey;

    const list = await (await LIST(ownerRequest("agents", { key }))).json();
    expect(list.agents.map((x: { id: string }) => x.id)).toEqual([mine.id]);

    const stats = await (await STATS(ownerRequest("stats", { key }))).json();
    expect(stats.agents.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    expect(stats.total.rentals.total).toBe(0);

    const id = theirs.id;
    const attempts = [
      GET_AGENT(ownerRequest(`agents/${id}`, { key }), segment(id)),
      PATCH(ownerRequest(`agents/${id}`, { key, method: "PATCH", body: { name: "Taken" } }), segment(id)),
      PATCH(ownerRequest(`agents/${id}`, { key, method: "PATCH", body: { pricePerHour: 0.01 } }), segment(id)),
      CONNECT(
        ownerRequest(`agents/${id}/connect`, {
          key,
          body: { webhookUrl: "http://127.0.0.1:1/hooks/agent", webhookToken: "t".repeat(40) },
        }),
        segment(id),
      ),
      DELETE(ownerRequest(`agents/${id}`, { key, method: "DELETE" }), segment(id)),
    ];
    const notFound = await (
      await GET_AGENT(ownerRequest("agents/00000000-0000-4000-8000-000000000000", { key }), segment("00000000-0000-4000-8000-000000000000"))
    ).json();
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(notFound);
    }

    const after = await db.agent.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(after).toEqual(before);
    expect(await db.healthCheck.count({ where: { agentId: theirs.id } })).toBe(0);
    // B still sees its agent as it was.
    const own = await (await GET_AGENT(ownerRequest(`agents/${id}`, { key: b.apiKey }), segment(id))).json();
    expect(own.agent).toMatchObject({ name: "Theirs", pricePerHour: 2, totalRentals: 1 });
  });
});
