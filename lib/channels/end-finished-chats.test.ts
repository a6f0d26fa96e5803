// The chat sweep's housekeeping on the real database: delivery claims are kept a week (Meta retries
// a WhatsApp delivery for up to 7 days) and expired move commands are deleted; what is still of
// use stays. Other files' sweeps run beside this one and delete by the same rules.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { endFinishedChats } from "@/lib/channels/end-finished-chats";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

const DAY = 86_400_000;

describe("endFinishedChats' housekeeping", () => {
  it("forgets delivery claims older than a week and move commands past their expiry, keeping the rest", async () => {
    const now = new Date();
    const mark = randomBytes(6).toString("hex");
    await db.chatDelivery.createMany({
      data: [
        { platform: "WhatsApp", key: `old-${mark}`, createdAt: new Date(now.getTime() - 7 * DAY - 60_000) },
        { platform: "WhatsApp", key: `recent-${mark}`, createdAt: new Date(now.getTime() - 6 * DAY) },
      ],
    });
    const agent = await makeAgent();
    const [expired, valid] = [await makeRental(agent.id, { channel: "Telegram" }), await makeRental(agent.id, { channel: "Telegram" })];
    await db.chatMoveToken.createMany({
      data: [
        { rentalId: expired.id, tokenHash: `expired-${mark}`, expiresAt: new Date(now.getTime() - 1) },
        { rentalId: valid.id, tokenHash: `valid-${mark}`, expiresAt: new Date(now.getTime() + 10 * 60_000) },
      ],
    });

    const swept = await endFinishedChats(now);
    expect(swept.deliveriesDeleted).toBeGreaterThanOrEqual(1);
    expect(swept.movesDeleted).toBeGreaterThanOrEqual(1);
    const keys = (await db.chatDelivery.findMany({ where: { key: { endsWith: mark } } })).map((d) => d.key);
    expect(keys).toEqual([`recent-${mark}`]);
    const moves = await db.chatMoveToken.findMany({ where: { rentalId: { in: [expired.id, valid.id] } } });
    expect(moves.map((m) => m.rentalId)).toEqual([valid.id]);
  });
});
