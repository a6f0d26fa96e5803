// "Disconnect chat" on the real database: only the rental's renter can take the rental back from
// its chat, the chat is told (queued, then sent by the sender), and afterwards no chat account's code connects it (only a move).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectRentalChat } from "@/lib/channels/disconnect-rental-chat";
import { endedBinding } from "@/lib/channels/ended-binding";
import { findRentalChat } from "@/lib/channels/find-rental-chat";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { sendNoticesTo } from "@/test/chat-notices";
import { makeAgent, makeOwner, makeRental } from "@/test/fixtures";

let mock: ChatPlatformMock;
beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, { TELEGRAM_BOT_TOKEN: "1:disconnect-test", TELEGRAM_API_URL: `${mock.url}/telegram` });
});
afterAll(() => mock.close());

async function boundRental() {
  const renter = await makeOwner();
  const agent = await makeAgent();
  const rental = await makeRental(agent.id, { channel: "Telegram" });
  const chatUser = String(randomBytes(4).readUInt32BE());
  // As a /start leaves it: the binding, and the rental held by that chat account.
  await db.rental.update({ where: { id: rental.id }, data: { renterId: renter.id, chatHolder: `Telegram:${chatUser}` } });
  await db.chatBinding.create({
    data: {
      platform: "Telegram",
      chatUser,
      chatId: chatUser,
      chatLabel: "@someone",
      rentalId: rental.id,
      openUser: `Telegram:${chatUser}`,
      openRentalId: rental.id,
    },
  });
  return { renter: { id: renter.id, walletAddress: null }, rental, chatUser };
}

describe("disconnectRentalChat", () => {
  it("ends the rental's binding and tells the chat; the page then shows no chat", async () => {
    const { renter, rental, chatUser } = await boundRental();
    expect(await findRentalChat(rental.id)).toEqual({
      bound: { platform: "Telegram", chatLabel: "@someone", createdAt: expect.any(Date) },
      codeConnects: "holder",
    });
    await disconnectRentalChat(renter, rental.id);
    expect(await findRentalChat(rental.id)).toEqual({ bound: null, codeConnects: "nobody" });
    const binding = await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id } });
    expect(binding).toMatchObject({ endReason: "disconnected", openUser: null, openRentalId: null });
    // Queued with the disconnect, in its transaction; the sender sends it.
    expect(await db.chatNotice.findUniqueOrThrow({ where: { idempotencyKey: `chat-disconnected:${binding.id}` } })).toMatchObject({
      status: "queued",
      chatId: chatUser,
    });
    expect(mock.calls().some((c) => c.body.chat_id === chatUser)).toBe(false);
    await sendNoticesTo(chatUser);
    const told = mock.calls().find((c) => c.method === "sendMessage" && c.body.chat_id === chatUser);
    expect(String(told?.body.text)).toMatch(
      /disconnected from .* on the rental's page\. To connect a chat again, press "Move to another chat account"/,
    );
  });

  it("refuses another account's rental (404) and a rental without a chat (409)", async () => {
    const { rental } = await boundRental();
    const stranger = await makeOwner();
    await expect(disconnectRentalChat({ id: stranger.id, walletAddress: null }, rental.id)).rejects.toMatchObject({
      status: 404,
    });
    expect((await findRentalChat(rental.id)).bound).not.toBeNull();
    expect(await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).toMatchObject({ chatHolder: expect.any(String) });
    // A chat that sent /stop: nothing to disconnect (409), and the rental stays its account's.
    const { renter, rental: other, chatUser } = await boundRental();
    await db.chatBinding.updateMany({ where: { rentalId: other.id }, data: endedBinding("stopped", new Date()) });
    await expect(disconnectRentalChat(renter, other.id)).rejects.toMatchObject({ status: 409 });
    expect(await findRentalChat(other.id)).toEqual({ bound: null, codeConnects: "holder" });
    // Refused: nothing queued (the transaction rolled back).
    expect(await db.chatNotice.count({ where: { chatUser } })).toBe(0);
  });
});
