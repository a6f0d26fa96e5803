import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findMarketplaceAgent } from "@/lib/agents/find-marketplace-agent";
import { recordHealthCheck } from "@/lib/agents/record-health-checks";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

const webhook = { url: "https://agent.example.com/hooks/agent", token: "t".repeat(32) };

describe("findMarketplaceAgent", () => {
  it("returns a rentable listing with its prices, stats and latest health check", async () => {
    const agent = await makeAgent({ webhook, listing: { pricePerMonth: null } });
    const rental = await makeRental(agent.id);
    await makeRental(agent.id, { status: "pending" });
    await db.rating.create({ data: { rentalId: rental.id, agentId: agent.id, score: 4 } });
    expect((await findMarketplaceAgent(agent.id))?.lastHealthCheck).toBeNull();
    await recordHealthCheck(agent.id, { ok: true, statusCode: 200, error: null, latencyMs: 12 }, "connect");

    const found = await findMarketplaceAgent(agent.id.toUpperCase());
    expect(found).toMatchObject({
      id: agent.id,
      name: agent.name,
      prices: { hour: 2_000_000n, day: 10_000_000n, month: null },
      rating: { average: 4, count: 1 },
      totalRentals: 1,
      rentable: true,
      notRentableReason: null,
      lastHealthCheck: { ok: true, at: expect.any(Date) },
    });
    expect(Object.keys(found!)).not.toContain("webhookUrlCipher");
  });

  it("says why a listing cannot be rented", async () => {
    const offline = await makeAgent({ webhook });
    await db.agent.update({ where: { id: offline.id }, data: { status: "offline" } });
    expect(await findMarketplaceAgent(offline.id)).toMatchObject({ rentable: false, notRentableReason: "offline" });
    const hookless = await makeAgent();
    expect(await findMarketplaceAgent(hookless.id)).toMatchObject({ rentable: false, notRentableReason: "no-webhook" });
  });

  it("returns null for unknown and malformed ids", async () => {
    expect(await findMarketplaceAgent(randomUUID())).toBeNull();
    for (const id of ["", "abc", "not-a-uuid", "00000000-0000-0000-0000-00000000000g", `${randomUUID()}x`, "'; DROP TABLE agents; --"]) {
      expect(await findMarketplaceAgent(id), id).toBeNull();
    }
  });
});
