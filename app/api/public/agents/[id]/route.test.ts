import { describe, expect, it } from "vitest";
import { DELETE, GET, PATCH, POST } from "@/app/api/public/agents/[id]/route";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, segment } from "@/test/fixtures";

const get = (key: string | undefined, id: string) => GET(ownerRequest(`agents/${id}`, { key }), segment(id));
const patch = (key: string | undefined, id: string, body: unknown) =>
  PATCH(ownerRequest(`agents/${id}`, { key, body, method: "PATCH" }), segment(id));
const remove = (key: string | undefined, id: string) => DELETE(ownerRequest(`agents/${id}`, { key, method: "DELETE" }), segment(id));

async function ownerWithAgent(options: Parameters<typeof makeOwnerAgent>[1] = {}) {
  const owner = await makeOwnerWithKey();
  return { ...owner, agent: await makeOwnerAgent(owner.accountId, options) };
}

describe("GET /api/public/agents/{id}", () => {
  it("200: the agent's view", async () => {
    const { apiKey, agent } = await ownerWithAgent();
    await makeRental(agent.id, { status: "completed" });
    const res = await get(apiKey, agent.id);
    expect(res.status).toBe(200);
    expect((await res.json()).agent).toMatchObject({
      id: agent.id,
      name: "Owner Agent",
      pricePerHour: 2,
      guaranteePercent: 99,
      status: "available",
      marketplaceUrl: `${appUrl()}/agents/${agent.id}`,
      totalRentals: 1,
      rating: { average: null, count: 0 },
    });
  });

  it("404: malformed id, unknown id, another account's agent — the same answer", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const { agent: theirs } = await ownerWithAgent();
    const bodies = [];
    for (const id of ["not-a-uuid", "1", "00000000-0000-4000-8000-000000000000", theirs.id, `${theirs.id}x`]) {
      const res = await get(apiKey, id);
      expect(res.status, id).toBe(404);
      bodies.push(await res.json());
    }
    expect(new Set(bodies.map((b) => b.error)).size).toBe(1);
    expect(bodies[0].error).toMatch(/Agent not found/);
  });

  it("401: without a valid key, even for a real agent id", async () => {
    const { agent } = await ownerWithAgent();
    expect((await get(undefined, agent.id)).status).toBe(401);
    expect((await get("rck_bad", agent.id)).status).toBe(401);
  });

  it("405 for POST", async () => {
    const res = POST();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/GET, PATCH, DELETE/);
  });
});

describe("PATCH /api/public/agents/{id}", () => {
  it("200: changes only the fields sent", async () => {
    const { apiKey, agent } = await ownerWithAgent({ listing: { skills: ["sql", "python"] } });
    const res = await patch(apiKey, agent.id, {
      name: "  Renamed  ",
      description: "New scope.",
      channels: ["Slack", "API", "Slack"],
      pricePerHour: "2.75",
      pricePerDay: null,
      pricePerMonth: "",
    });
    expect(res.status).toBe(200);
    const { agent: view } = await res.json();
    expect(view).toMatchObject({
      id: agent.id,
      name: "Renamed",
      description: "New scope.",
      category: "coding",
      skills: ["sql", "python"],
      channels: ["Slack", "API"],
      pricePerHour: 2.75,
      pricePerDay: null,
      pricePerMonth: null,
      status: "available",
    });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect([row.pricePerHour, row.pricePerDay, row.pricePerMonth]).toEqual([2_750_000n, null, null]);
  });

  it("200: the price per message is set, changed, kept when absent and cleared with null or a blank", async () => {
    const { apiKey, agent } = await ownerWithAgent();
    expect((await (await get(apiKey, agent.id)).json()).agent.pricePerMessage).toBeNull();
    const stored = async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).pricePerMessage;

    let res = await patch(apiKey, agent.id, { pricePerMessage: 0.01 });
    expect(res.status).toBe(200);
    expect((await res.json()).agent).toMatchObject({ pricePerMessage: 0.01, pricePerHour: 2 });
    expect(await stored()).toBe(10_000n);

    res = await patch(apiKey, agent.id, { pricePerMessage: "0.125" });
    expect((await res.json()).agent.pricePerMessage).toBe(0.125);
    res = await patch(apiKey, agent.id, { name: "Still priced" });
    expect((await res.json()).agent).toMatchObject({ name: "Still priced", pricePerMessage: 0.125 });
    expect((await (await get(apiKey, agent.id)).json()).agent.pricePerMessage).toBe(0.125);

    // Refused: unchanged.
    for (const [body, error] of [
      [{ pricePerMessage: 0.0001 }, /^pricePerMessage: must be at least 0\.001 USDC$/],
      [{ pricePerMessage: "0.0100001" }, /^pricePerMessage: must have at most 6 decimals$/],
      [{ pricePerMessage: "cheap" }, /^pricePerMessage: must be a USDC amount such as 0\.01$/],
    ] as const) {
      res = await patch(apiKey, agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body)).toMatch(error);
    }
    expect(await stored()).toBe(125_000n);

    res = await patch(apiKey, agent.id, { pricePerMessage: null });
    expect(res.status).toBe(200);
    expect((await res.json()).agent.pricePerMessage).toBeNull();
    expect(await stored()).toBeNull();
    await patch(apiKey, agent.id, { pricePerMessage: 1 });
    res = await patch(apiKey, agent.id, { pricePerMessage: "" });
    expect((await res.json()).agent.pricePerMessage).toBeNull();
  });

  it("200: the free trial is offered, changed, kept when absent and ended with null or a blank; 400 outside 1–20", async () => {
    const { apiKey, agent } = await ownerWithAgent();
    expect((await (await get(apiKey, agent.id)).json()).agent.trialMessages).toBeNull();
    const stored = async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).trialMessages;

    let res = await patch(apiKey, agent.id, { trialMessages: 5 });
    expect(res.status).toBe(200);
    expect((await res.json()).agent.trialMessages).toBe(5);
    res = await patch(apiKey, agent.id, { trialMessages: "20" });
    expect((await res.json()).agent.trialMessages).toBe(20);
    res = await patch(apiKey, agent.id, { name: "Still on trial" });
    expect((await res.json()).agent).toMatchObject({ name: "Still on trial", trialMessages: 20 });

    for (const value of [0, 21, 2.5, "ten", -1, true]) {
      res = await patch(apiKey, agent.id, { trialMessages: value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect((await res.json()).error, JSON.stringify(value)).toBe(
        "trialMessages: must be a whole number of messages from 1 to 20, or null for no trial",
      );
    }
    expect(await stored()).toBe(20);

    res = await patch(apiKey, agent.id, { trialMessages: null });
    expect((await res.json()).agent.trialMessages).toBeNull();
    expect(await stored()).toBeNull();
    await patch(apiKey, agent.id, { trialMessages: 3 });
    res = await patch(apiKey, agent.id, { trialMessages: "" });
    expect((await res.json()).agent.trialMessages).toBeNull();
  });

  it("400: clearing the last rental price is refused even when a price per message remains", async () => {
    const { apiKey, agent } = await ownerWithAgent({ listing: { pricePerDay: null, pricePerMonth: null } });
    expect((await patch(apiKey, agent.id, { pricePerMessage: 0.05 })).status).toBe(200);
    const res = await patch(apiKey, agent.id, { pricePerHour: null });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^pricePerHour: this would clear the last price; keep a price for at least one duration/);
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect([row.pricePerHour, row.pricePerMessage]).toEqual([2_000_000n, 50_000n]);
  });

  it("200: the uptime guarantee changes when sent and stays as it is otherwise", async () => {
    const { apiKey, agent } = await ownerWithAgent({ listing: { guaranteePercent: 95 } });
    expect((await (await get(apiKey, agent.id)).json()).agent.guaranteePercent).toBe(95);
    let res = await patch(apiKey, agent.id, { guaranteePercent: "99.9" });
    expect(res.status).toBe(200);
    expect((await res.json()).agent.guaranteePercent).toBe(99.9);
    res = await patch(apiKey, agent.id, { name: "Still 99.9" });
    expect((await res.json()).agent).toMatchObject({ name: "Still 99.9", guaranteePercent: 99.9 });
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).guaranteePermille).toBe(999);
    for (const [body, error] of [
      [{ guaranteePercent: 100 }, /^guaranteePercent: must be between 90 and 99\.9$/],
      [{ guaranteePercent: 89 }, /^guaranteePercent: must be between 90 and 99\.9$/],
      [{ guaranteePercent: 99.45 }, /^guaranteePercent: must have at most one decimal, such as 99\.5$/],
      [{ guaranteePercent: null }, /^guaranteePercent: must be a percentage/],
    ] as const) {
      res = await patch(apiKey, agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body)).toMatch(error);
    }
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).guaranteePermille).toBe(999);
  });

  it("200: skills follow a category change while they are the old defaults; [] restores the defaults", async () => {
    const { apiKey, agent } = await ownerWithAgent(); // coding, default skills
    let res = await patch(apiKey, agent.id, { category: "data" });
    expect((await res.json()).agent).toMatchObject({ category: "data", skills: ["analysis", "sql", "visualization"] });
    res = await patch(apiKey, agent.id, { skills: ["etl"] });
    expect((await res.json()).agent.skills).toEqual(["etl"]);
    res = await patch(apiKey, agent.id, { category: "research" });
    expect((await res.json()).agent).toMatchObject({ category: "research", skills: ["etl"] });
    res = await patch(apiKey, agent.id, { skills: [] });
    expect((await res.json()).agent.skills).toEqual(["web-search", "summarization", "citations"]);
  });

  it("400: every field is validated; clearing the last price is refused", async () => {
    const { apiKey, agent } = await ownerWithAgent({ listing: { pricePerDay: null, pricePerMonth: null } });
    const cases: [unknown, RegExp][] = [
      [{}, /^send at least one field to change: name, description/],
      [{ name: null }, /^name: must be a string$/],
      [{ name: "x" }, /^name: must be at least 2 characters$/],
      [{ name: "x".repeat(61) }, /^name: must be at most 60 characters$/],
      [{ description: "" }, /^description: must not be empty$/],
      [{ description: "x".repeat(501) }, /^description: must be at most 500 characters$/],
      [{ category: "robots" }, /^category: must be one of/],
      [{ skills: ["Bad Tag"] }, /^skills\.0: /],
      [{ skills: Array.from({ length: 9 }, (_, i) => `s${i}`) }, /^skills: at most 8 skills$/],
      [{ channels: [] }, /^channels: must name at least one channel$/],
      [{ channels: ["Email"] }, /^channels\.0: /],
      [{ pricePerHour: 0 }, /^pricePerHour: must be more than 0/],
      [{ pricePerHour: "-3" }, /^pricePerHour: must not be negative$/],
      [{ pricePerDay: "1.1234567" }, /^pricePerDay: must have at most 6 decimals$/],
      [{ pricePerMonth: 2_000_000 }, /^pricePerMonth: must be at most 1,000,000 USDC$/],
      [
        { pricePerHour: null },
        /^pricePerHour: this would clear the last price; keep a price for at least one duration \(per hour, per day or per month\)$/,
      ],
      [{ pricePerHour: "", pricePerDay: null }, /^pricePerHour: this would clear the last price/],
      [{ status: "offline" }, /^unknown field "status"/],
      [{ webhookUrl: "https://x.example" }, /^unknown field "webhookUrl"/],
      ["name", /the body must be a JSON object/],
    ];
    for (const [body, error] of cases) {
      const res = await patch(apiKey, agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body)).toMatch(error);
    }
    // Nothing was changed by any of them; moving the only price to another duration is fine.
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).pricePerHour).toBe(2_000_000n);
    const res = await patch(apiKey, agent.id, { pricePerHour: null, pricePerDay: 12 });
    expect((await res.json()).agent).toMatchObject({ pricePerHour: null, pricePerDay: 12, pricePerMonth: null });
  });

  it("404: another account's agent is neither changed nor revealed", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const { agent: theirs } = await ownerWithAgent();
    for (const id of [theirs.id, "nope"]) {
      const res = await patch(apiKey, id, { name: "Hijacked" });
      expect(res.status).toBe(404);
    }
    expect((await db.agent.findUniqueOrThrow({ where: { id: theirs.id } })).name).toBe("Owner Agent");
  });

  it("401: without a valid key", async () => {
    const { agent } = await ownerWithAgent();
    expect((await patch(undefined, agent.id, { name: "Nope" })).status).toBe(401);
  });
});

describe("DELETE /api/public/agents/{id}", () => {
  it("204: deletes a never-rented agent and its health checks", async () => {
    const { apiKey, agent } = await ownerWithAgent();
    await db.healthCheck.create({
      data: { agentId: agent.id, ok: true, statusCode: 200, latencyMs: 5, trigger: "connect" },
    });
    const res = await remove(apiKey, agent.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await db.agent.findUnique({ where: { id: agent.id } })).toBeNull();
    expect(await db.healthCheck.count({ where: { agentId: agent.id } })).toBe(0);
    expect((await get(apiKey, agent.id)).status).toBe(404);
    expect((await remove(apiKey, agent.id)).status).toBe(404);
  });

  it("409: while a rental is active, naming when it ends", async () => {
    const { apiKey, agent } = await ownerWithAgent();
    const rental = await makeRental(agent.id, { durationType: "hour" });
    const res = await remove(apiKey, agent.id);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(
      `This agent is rented until ${rental.endsAt.toISOString()}; it cannot be deleted while a rental is active.`,
    );
    expect(await db.agent.findUnique({ where: { id: agent.id } })).not.toBeNull();
  });

  it("409: with rental history (finished, disputed, expired-but-unreleased or awaiting payment)", async () => {
    for (const overrides of [
      { status: "completed" },
      { status: "cancelled" },
      { status: "disputed" },
      { status: "pending" },
      { startsInSeconds: -7200, endsInSeconds: -60 },
    ] as const) {
      const { apiKey, agent } = await ownerWithAgent();
      await makeRental(agent.id, overrides);
      const res = await remove(apiKey, agent.id);
      expect(res.status, JSON.stringify(overrides)).toBe(409);
      expect((await res.json()).error).toMatch(/has rental history \(1 rental\)/);
      expect(await db.agent.findUnique({ where: { id: agent.id } })).not.toBeNull();
    }
  });

  it("404: another account's agent is not deleted", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const { agent: theirs } = await ownerWithAgent();
    expect((await remove(apiKey, theirs.id)).status).toBe(404);
    expect((await remove(apiKey, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(await db.agent.findUnique({ where: { id: theirs.id } })).not.toBeNull();
  });

  it("401: without a valid key", async () => {
    const { agent } = await ownerWithAgent();
    expect((await remove(undefined, agent.id)).status).toBe(401);
    expect(await db.agent.findUnique({ where: { id: agent.id } })).not.toBeNull();
  });
});
