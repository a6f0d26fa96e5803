// The rental page's poll: what of the signed-in renter's rental the page would now show
// differently, from the same records the page reads; nothing of anyone else's rental.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/dashboard/rentals/[id]/live/route";
import { createSession } from "@/lib/auth/create-session";
import { db } from "@/lib/db";
import { makeAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

async function signedInRenter() {
  const account = await makeRenterAccount({ email: true });
  const { cookie } = await createSession(account.id, { method: "email" });
  return { account, cookie: cookie.split(";")[0] };
}

const live = (id: string, cookie?: string) =>
  GET(new Request(`http://localhost/api/dashboard/rentals/${id}/live`, { headers: cookie ? { cookie } : {} }), {
    params: Promise.resolve({ id }),
  });

describe("GET /api/dashboard/rentals/{id}/live", () => {
  it("follows the renter's rental: messages from any channel, the chat that holds it, a dispute and its decision", async () => {
    const agent = await makeAgent();
    const { account, cookie } = await signedInRenter();
    const rental = await rentalOf(agent, account, { channel: "Telegram" });

    const first = await live(rental.id, cookie);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(await first.json()).toEqual({
      status: "active",
      disputeDecidedAt: null,
      ownerAnsweredAt: null,
      messages: 0,
      chatConnectedAt: null,
    });

    // A message from the playground and one from the bot; the bot's chat connected.
    const call = {
      rentalId: rental.id,
      agentId: agent.id,
      statusCode: 200,
      webhookStatus: 200,
      latencyMs: 40,
      requestBytes: 10,
      responseBytes: 20,
    };
    await db.chatCall.createMany({ data: [call, { ...call, channel: "Telegram" }] });
    const binding = await db.chatBinding.create({
      data: {
        platform: "Telegram",
        chatUser: "42",
        chatLabel: "@ada",
        rentalId: rental.id,
        openUser: `Telegram:${randomUUID()}`,
        openRentalId: rental.id,
      },
    });
    expect(await (await live(rental.id, cookie)).json()).toEqual({
      status: "active",
      disputeDecidedAt: null,
      ownerAnsweredAt: null,
      messages: 2,
      chatConnectedAt: binding.createdAt.toISOString(),
    });

    // The event reader records the dispute, then its decision.
    await db.rental.update({ where: { id: rental.id }, data: { status: "disputed" } });
    expect(await (await live(rental.id, cookie)).json()).toMatchObject({ status: "disputed", disputeDecidedAt: null });
    // The owner answers in words, then the dispute is decided.
    const answeredAt = new Date("2026-11-26T09:00:00.000Z");
    await db.dispute.create({ data: { rentalId: rental.id, ownerAnswer: "It answered every message.", ownerAnsweredAt: answeredAt } });
    expect(await (await live(rental.id, cookie)).json()).toMatchObject({ status: "disputed", ownerAnsweredAt: answeredAt.toISOString() });
    const decidedAt = new Date("2026-11-26T10:00:00.000Z");
    await db.dispute.update({ where: { rentalId: rental.id }, data: { resolvedAt: decidedAt, resolvedBy: "arbiter" } });
    await db.rental.update({ where: { id: rental.id }, data: { status: "active", disputeRefundMicro: 0n } });
    expect(await (await live(rental.id, cookie)).json()).toMatchObject({ status: "active", disputeDecidedAt: decidedAt.toISOString() });
  });

  it("answers 404 for another account's rental, an unknown id or garbage, and 401 without a session", async () => {
    const agent = await makeAgent();
    const { cookie } = await signedInRenter();
    const other = await signedInRenter();
    const theirs = await rentalOf(agent, other.account);
    for (const id of [theirs.id, randomUUID(), "not-a-uuid"]) {
      const res = await live(id, cookie);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "This rental is not in your account." });
    }
    const visitor = await live(theirs.id);
    expect(visitor.status).toBe(401);
    expect((await visitor.json()).error).toMatch(/not signed in/);
  });
});
