// A binding belongs to the renter (issue 22): signed Telegram updates through the real route, the
// real database, a local webhook as the owner and the platform mock recording what the bot sends.
// The code connects the first chat account and then only that one; another account needs the
// renter's move command (made here as the rental's dashboard page makes it, from the session).
import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, type ReceivedRequest, startWebhook } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST } = await import("@/app/api/channels/telegram/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { telegramMessageRequest } = await import("@/lib/channels/dev/telegram-requests");
const { createChatMove } = await import("@/lib/channels/create-chat-move");
const { disconnectRentalChat } = await import("@/lib/channels/disconnect-rental-chat");
const { CHAT_MOVE_TTL_MS } = await import("@/lib/channels/chat-move-token");
const { sendNoticesTo } = await import("@/test/chat-notices");

const SECRET = randomBytes(24).toString("base64url");
const URL_ = "http://localhost/api/channels/telegram";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const webhookToken = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    TELEGRAM_BOT_TOKEN: "123456:move-test-token",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_BOT_USERNAME: "agent_rental_test_bot",
    TELEGRAM_API_URL: `${mock.url}/telegram`,
  });
  hook = await startWebhook((req, res) => {
    received.push(req);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${JSON.parse(req.body).message}`));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});
beforeEach(() => {
  received.length = 0;
});

type User = { id: number; username: string };
const newUser = (): User => ({ id: randomInt(1, 2 ** 40), username: `u${randomBytes(3).toString("hex")}` });
async function send(user: User, text: string) {
  expect((await POST(telegramMessageRequest(URL_, SECRET, user, text))).status).toBe(200);
  await settleAfter();
}
const said = (user: User) =>
  mock
    .calls()
    .filter((c) => c.method === "sendMessage" && c.body.chat_id === String(user.id))
    .map((c) => String(c.body.text));
const lastText = (user: User) => said(user).at(-1) ?? "";
const openBinding = (user: User) => db.chatBinding.findUnique({ where: { openUser: `Telegram:${user.id}` } });

/** A running Telegram rental of a renter account (the dashboard's consent is that account's session). */
async function renterRental(startsInSeconds = 0) {
  const agent = await makeAgent({
    webhook: { url: hook.url, token: webhookToken },
    listing: { name: `Move Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "Telegram"] },
  });
  const renter = await makeRenterAccount();
  const rental = await rentalOf(agent, renter, { channel: "Telegram", startsInSeconds });
  return { agent, renter, rental, code: rental.id.slice(0, 8) };
}

describe("a rental's chat belongs to the renter", () => {
  it("the code connects the first account; another account with the code alone is refused, holds nothing and reaches no owner, even after /stop", async () => {
    const { agent, rental, code } = await renterRental();
    const renter = newUser();
    const other = newUser();
    await send(renter, `/start ${code}`);
    expect(lastText(renter)).toContain(`Connected to ${agent.name}`);

    await send(other, `/start ${code}`);
    expect(lastText(other)).toBe(
      `This rental is held by another Telegram account (the last one connected to it), and its code alone cannot move it. To move it here, press "Move to another chat account" on the rental's page in your dashboard (or on the checkout page, while it is open) and send the command it gives you from this account.`,
    );
    expect(await openBinding(other)).toBeNull();
    await send(other, "let me in");
    expect(lastText(other)).toMatch(/not connected to an agent/);
    expect(received).toHaveLength(0);

    // Freed by /stop, the rental is still the renter's: the code does not hand it to the other account...
    await send(renter, "/stop");
    expect(lastText(renter)).toContain('To use it from another account, press "Move to another chat account"');
    await send(other, `/start ${code}`);
    expect(lastText(other)).toMatch(/held by another Telegram account/);
    expect(await openBinding(other)).toBeNull();
    expect(received).toHaveLength(0);
    // ...and connects the renter's own account again.
    await send(renter, `/start ${code}`);
    expect(lastText(renter)).toContain(`Connected to ${agent.name}`);
    await send(renter, "hello");
    expect(lastText(renter)).toBe("Echo: hello");
    expect(await openBinding(renter)).toMatchObject({ rentalId: rental.id });
  });

  it("the renter's move command moves it to the account that sends it, once; the old chat is told and cannot take it back", async () => {
    const { agent, renter: account, rental, code } = await renterRental();
    const first = newUser();
    const second = newUser();
    const third = newUser();
    await send(first, `/start ${code}`);

    const move = await createChatMove(rental.id, { account });
    expect(move).toMatchObject({ platform: "Telegram", token: expect.stringMatching(/^mv_[A-Za-z0-9_-]{22}$/) });
    // Stored as its SHA-256 only.
    const stored = await db.chatMoveToken.findUniqueOrThrow({ where: { rentalId: rental.id } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(move.token);

    await send(second, `/start ${move.token}`);
    expect(lastText(second)).toMatch(new RegExp(`^Connected to ${agent.name}\\. It was moved here from the account that held it`));
    await sendNoticesTo(String(first.id)); // queued with the move; the sender sends it
    expect(lastText(first)).toBe(
      `This rental of ${agent.name} was moved to another Telegram account from the renter's dashboard or checkout page, so this chat is disconnected from it.`,
    );
    expect(await openBinding(first)).toBeNull();
    expect(await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, chatUser: String(first.id) } })).toMatchObject({
      endReason: "moved",
    });
    await send(second, "moved in");
    expect(lastText(second)).toBe("Echo: moved in");
    expect(received).toHaveLength(1);

    // Once: the same command moves nothing again, and the old account's code no longer works.
    await send(third, `/start ${move.token}`);
    expect(lastText(third)).toMatch(/^This move command does not work \(any more\): each works once, for 15 minutes\./);
    expect(await openBinding(third)).toBeNull();
    await send(first, `/start ${code}`);
    expect(lastText(first)).toMatch(/held by another Telegram account/);
    expect(await openBinding(second)).toMatchObject({ rentalId: rental.id });
    expect(await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).toMatchObject({ chatHolder: `Telegram:${second.id}` });
    expect(received).toHaveLength(1);
  });

  it("refuses an expired move command, and a replaced one; the newest works", async () => {
    const { agent, renter: account, rental, code } = await renterRental(-3_600); // running when the expired one was made
    const holder = newUser();
    const other = newUser();
    await send(holder, `/start ${code}`);

    const expired = await createChatMove(rental.id, { account }, new Date(Date.now() - CHAT_MOVE_TTL_MS - 60_000));
    await send(other, `/start ${expired.token}`);
    expect(lastText(other)).toMatch(/^This move command does not work/);
    expect(await openBinding(other)).toBeNull();
    expect(await openBinding(holder)).toMatchObject({ rentalId: rental.id });

    const replaced = await createChatMove(rental.id, { account });
    const newest = await createChatMove(rental.id, { account });
    await send(other, `/start ${replaced.token}`);
    expect(lastText(other)).toMatch(/^This move command does not work/);
    await send(other, `/start ${newest.token}`);
    expect(lastText(other)).toContain(`Connected to ${agent.name}`);
    await sendNoticesTo(String(holder.id));
    expect(said(holder).filter((text) => text.includes("was moved to another Telegram account"))).toHaveLength(1);
    expect(received).toHaveLength(0);
  });

  it("after Disconnect chat no code connects it, not even its last account's; a move command does", async () => {
    const { agent, renter: account, rental, code } = await renterRental();
    const lost = newUser();
    const renter = newUser();
    await send(lost, `/start ${code}`);
    await disconnectRentalChat(account, rental.id);
    await sendNoticesTo(String(lost.id));
    expect(lastText(lost)).toMatch(/disconnected from .* on the rental's page/);

    for (const user of [lost, renter]) {
      await send(user, `/start ${code}`);
      expect(lastText(user)).toMatch(/^This rental's chat was disconnected on the rental's page, so its code alone cannot connect/);
      expect(await openBinding(user)).toBeNull();
    }
    const move = await createChatMove(rental.id, { account });
    const toldBefore = said(lost).length;
    await send(renter, `/start ${move.token}`);
    expect(lastText(renter)).toMatch(new RegExp(`^Connected to ${agent.name}\\. The rental ends`));
    await sendNoticesTo(String(lost.id));
    expect(said(lost)).toHaveLength(toldBefore); // told once already, when it was disconnected
    expect(received).toHaveLength(0);
  });

  it("/help says how to move a rental", async () => {
    const user = newUser();
    await send(user, "/help");
    expect(lastText(user)).toContain(
      'A rental stays with the account that connected it: its code alone connects no other. To move it to another account, press "Move to another chat account"',
    );
  });
});
