// POST /api/checkout/chat-move on the real database: only the browser that paid (it shows the
// quote's claim secret) gets a move command; the rental code, another rental's secret or none get
// nothing, so whoever holds the code alone can never move the renter's chat.
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/checkout/chat-move/route";
import { newAuthToken } from "@/lib/auth/auth-token";
import { CHAT_MOVE_TTL_MS } from "@/lib/channels/chat-move-token";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { startChat } from "@/lib/channels/start-chat";
import { db } from "@/lib/db";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

type Overrides = Parameters<typeof makeRental>[1];

/** A rental as checkout leaves it: its claim secret's hash stored, the secret in the paying browser. */
async function paidRental(overrides: Overrides = {}) {
  const agent = await makeAgent({ listing: { channels: ["API", "Telegram"] } });
  const rental = await makeRental(agent.id, { channel: "Telegram", ...overrides });
  const claim = newAuthToken();
  await db.rental.update({ where: { id: rental.id }, data: { claimSecretHash: claim.hash } });
  return { agent, rental, code: rental.id.slice(0, 8), claimSecret: claim.token };
}

const post = (body: unknown) =>
  POST(
    new Request("http://localhost/api/checkout/chat-move", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
      body: JSON.stringify(body),
    }),
  );
// No chat id: the moved-from account is not told here (the bots' tests check that).
const telegramUser = (): ChatUser => ({ platform: "Telegram", id: String(randomInt(1, 2 ** 40)), chatId: null, label: "@someone" });
const moveTokens = (rentalId: string) => db.chatMoveToken.count({ where: { rentalId } });

describe("POST /api/checkout/chat-move", () => {
  it("answers the browser that paid with a one-time move command, which moves the chat the code alone cannot", async () => {
    const { agent, rental, code, claimSecret } = await paidRental();
    const first = telegramUser();
    const second = telegramUser();
    expect(await startChat(first, code)).toContain(`Connected to ${agent.name}`);
    expect(await startChat(second, code)).toMatch(/held by another Telegram account/);

    const before = Date.now();
    const res = await post({ rentalId: rental.id, claimSecret });
    const after = Date.now();
    expect(res.status).toBe(201);
    const move = await res.json();
    expect(move).toEqual({ platform: "Telegram", token: expect.stringMatching(/^mv_[A-Za-z0-9_-]{22}$/), expiresAt: expect.any(String) });
    expect(Date.parse(move.expiresAt)).toBeGreaterThanOrEqual(before + CHAT_MOVE_TTL_MS);
    expect(Date.parse(move.expiresAt)).toBeLessThanOrEqual(after + CHAT_MOVE_TTL_MS);

    expect(await startChat(second, move.token)).toContain(`Connected to ${agent.name}. It was moved here`);
    expect(await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).toMatchObject({ chatHolder: `Telegram:${second.id}` });
    expect(await moveTokens(rental.id)).toBe(0);
  });

  it("refuses (403) the rental code, another rental's claim secret and an unknown rental, and makes no command", async () => {
    const { rental, code, claimSecret } = await paidRental();
    const other = await paidRental();
    for (const body of [
      { rentalId: rental.id, claimSecret: code },
      { rentalId: rental.id, claimSecret: rental.id },
      { rentalId: rental.id, claimSecret: other.claimSecret },
      { rentalId: crypto.randomUUID(), claimSecret },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error:
          'This browser cannot show that it paid for this rental. Sign in with the wallet that paid and press "Move to another chat account" on the rental\'s page under My rentals.',
      });
    }
    expect((await post({ rentalId: rental.id })).status).toBe(400);
    expect(await moveTokens(rental.id)).toBe(0);
  });

  it("refuses (409) a rental bought for the API, and one that has ended", async () => {
    const api = await paidRental({ channel: "API" });
    const apiRes = await post({ rentalId: api.rental.id, claimSecret: api.claimSecret });
    expect(apiRes.status).toBe(409);
    expect(await apiRes.json()).toEqual({ error: "This rental was bought for the API: it has no chat to move." });

    const ended = await paidRental({ startsInSeconds: -7_200, endsInSeconds: -60 });
    const endedRes = await post({ rentalId: ended.rental.id, claimSecret: ended.claimSecret });
    expect(endedRes.status).toBe(409);
    expect((await endedRes.json()).error).toMatch(/^This rental ended/);
    expect(await moveTokens(ended.rental.id)).toBe(0);
  });
});
