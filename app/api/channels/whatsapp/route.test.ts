// The WhatsApp bot end to end on the Chat SDK: Meta-signed events (real HMAC-SHA256 with the app
// secret) through the real route and adapter, the real database, a real local webhook as the
// owner, and the platform mock standing in for the Cloud API, recording what the bot sends.
import { createHmac, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST, GET, PUT } = await import("@/app/api/channels/whatsapp/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { whatsappMessageRequest } = await import("@/lib/channels/dev/whatsapp-requests");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { createChatMove } = await import("@/lib/channels/create-chat-move");
const { FULL_REPLY_POINTER } = await import("@/lib/channels/reply-text");
const { sendNoticesTo } = await import("@/test/chat-notices");

const APP_SECRET = randomBytes(24).toString("hex");
const VERIFY_TOKEN = randomBytes(16).toString("base64url");
const PHONE_NUMBER_ID = "106540352242922";
const URL_ = "http://localhost/api/channels/whatsapp";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
let hold: Promise<void> | null = null;
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    WHATSAPP_ACCESS_TOKEN: "EAAG-test-access-token",
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_PHONE_NUMBER: "15550100123",
    WHATSAPP_API_URL: `${mock.url}/whatsapp`,
  });
  hook = await startWebhook(async (req, res) => {
    received.push(req);
    const { message } = JSON.parse(req.body);
    if (message === "wait") await hold;
    if (message === "long") return res.writeHead(200, { "content-type": "text/plain" }).end(`${"word ".repeat(3_000)}`);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});
beforeEach(() => {
  received.length = 0;
});

const newUser = () => String(randomInt(10 ** 10, 10 ** 11));
async function send(waId: string, text: string, messageId?: string) {
  const res = await POST(whatsappMessageRequest(URL_, APP_SECRET, waId, text, { phoneNumberId: PHONE_NUMBER_ID, messageId }));
  await settleAfter();
  return res;
}
const sentTo = (waId: string) => mock.calls().filter((c) => c.platform === "WhatsApp" && c.body.to === waId);
const lastText = (waId: string) => String((sentTo(waId).at(-1)?.body.text as { body?: string } | undefined)?.body ?? "");

const texts = (waId: string) => sentTo(waId).map((c) => String((c.body.text as { body?: string } | undefined)?.body ?? ""));

/** A request signed with the app secret, as Meta signs it, whatever the body. */
function signed(body: string, secret = APP_SECRET) {
  return new Request(URL_, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
    },
    body,
  });
}

async function whatsappRental(overrides: Parameters<typeof makeRental>[1] = {}) {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `WhatsApp Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "WhatsApp", "Telegram"] },
  });
  const rental = await makeRental(agent.id, { channel: "WhatsApp", ...overrides });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

describe("/api/channels/whatsapp", () => {
  it("echoes hub.challenge to the verification GET with the right token, and refuses a wrong one (403)", async () => {
    const ok = await GET(new Request(`${URL_}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await GET(new Request(`${URL_}?hub.mode=subscribe&hub.verify_token=nope-nope-nope&hub.challenge=1`));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: expect.any(String) });
    expect((await PUT()).status).toBe(405);
  });

  it("refuses an event without a valid X-Hub-Signature-256 (401), and touches nothing", async () => {
    // This file's own rows and calls only: other test files claim deliveries in the same database.
    const messageId = `wamid.${randomBytes(8).toString("hex")}`;
    const user = newUser();
    const callsBefore = mock.calls().length;
    const res = await POST(whatsappMessageRequest(URL_, "not-the-app-secret", user, "help", { phoneNumberId: PHONE_NUMBER_ID, messageId }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringContaining("not signed by WhatsApp") });
    await settleAfter();
    expect(await db.chatDelivery.count({ where: { platform: "WhatsApp", key: messageId } })).toBe(0);
    expect(mock.calls().length).toBe(callsBefore);
  });

  it("start <code> binds the chat user; a message then reaches the owner once as WhatsApp, even delivered twice", async () => {
    const { agent, rental, code } = await whatsappRental();
    const user = newUser();
    expect((await send(user, `start ${code}`)).status).toBe(200);
    expect(lastText(user)).toContain(`Connected to ${agent.name}`);
    const binding = await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, endedAt: null } });
    expect(binding).toMatchObject({ platform: "WhatsApp", chatUser: user, chatId: `whatsapp:${PHONE_NUMBER_ID}:${user}` });

    const messageId = `wamid.${randomBytes(8).toString("hex")}`;
    await send(user, "hello there", messageId);
    await send(user, "hello there", messageId);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ message: "hello there", channel: "WhatsApp", agentId: agent.id });
    expect(lastText(user)).toBe("Echo: hello there");
    const reply = sentTo(user).at(-1)!;
    expect(reply.auth).toBe("Bearer EAAG-test-access-token");
    expect(reply.body).toMatchObject({ messaging_product: "whatsapp", to: user, type: "text" });
  });

  it("a redelivery of the same wamid after the SDK's own de-duplication has expired still reaches the owner once", async () => {
    const { code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    const messageId = `wamid.${randomBytes(8).toString("hex")}`;
    await send(user, "exactly once", messageId);
    // The Chat SDK forgets a message id after 5 minutes (its dedupe entry in chat_state_cache, if
    // it keeps one); Meta retries for longer. The claim in chat_deliveries is what keeps it once.
    await db.$executeRaw`DELETE FROM chat_state_cache WHERE cache_key LIKE ${`dedupe:whatsapp:%${messageId}`}`;
    expect(await db.$queryRaw`SELECT 1 FROM chat_state_cache WHERE cache_key LIKE ${`%${messageId}%`}`).toEqual([]);
    const repliesBefore = sentTo(user).length;
    expect((await send(user, "exactly once", messageId)).status).toBe(200);
    expect(received.filter((r) => JSON.parse(r.body).message === "exactly once")).toHaveLength(1);
    expect(sentTo(user).length).toBe(repliesBefore);
    expect(await db.chatDelivery.count({ where: { platform: "WhatsApp", key: messageId } })).toBe(1);
  });

  it("status, extend, stop and help answer as commands, typed with or without a slash and in any case", async () => {
    const { agent, rental, code } = await whatsappRental();
    const user = newUser();
    await send(user, `Start ${code}`);
    expect(lastText(user)).toMatch(new RegExp(`^Connected to ${agent.name}\\.`));
    expect(lastText(user)).toContain("just send a message here");

    await send(user, "status");
    expect(lastText(user)).toMatch(new RegExp(`^Connected to ${agent.name}\\. The rental ends .*left\\)`));
    await send(user, "/extend");
    expect(lastText(user)).toMatch(
      new RegExp(`^Your rental of ${agent.name} ends [^\\n]+\\.\\nExtend it here .*/dashboard/rentals/${rental.id}/extend\\n`),
    );
    await send(user, "  HELP ");
    expect(lastText(user)).toContain("This bot connects you to an AI agent you rented");
    expect(lastText(user)).toContain("start <code>: connect your rental");
    expect(lastText(user)).toContain("status: the agent and the time left");
    expect(lastText(user)).toContain("any other message goes to the agent");
    expect(received).toHaveLength(0); // no command reached the owner

    await send(user, "stop");
    expect(lastText(user)).toContain(`Disconnected from ${agent.name}`);
    expect(await db.chatBinding.count({ where: { platform: "WhatsApp", chatUser: user, endedAt: null } })).toBe(0);
    await send(user, "hello?");
    expect(lastText(user)).toBe("You are not connected to an agent yet. Send start <code> with your rental code first.");
    expect(received).toHaveLength(0);
  });

  it('"stop the car" and "help me write" are messages to the agent, not commands', async () => {
    const { code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    await send(user, "stop the car");
    expect(lastText(user)).toBe("Echo: stop the car");
    await send(user, "help me write");
    expect(lastText(user)).toBe("Echo: help me write");
    await send(user, "status report please");
    expect(lastText(user)).toBe("Echo: status report please");
    expect(received.map((r) => JSON.parse(r.body).message)).toEqual(["stop the car", "help me write", "status report please"]);
    // Still connected: "stop the car" stopped nothing.
    expect(await db.chatBinding.count({ where: { platform: "WhatsApp", chatUser: user, endedAt: null } })).toBe(1);
  });

  it("a message before start says to send start <code>, and reaches no owner", async () => {
    const user = newUser();
    await send(user, "hi, is anyone there?");
    expect(lastText(user)).toBe("You are not connected to an agent yet. Send start <code> with your rental code first.");
    await send(user, "start");
    expect(lastText(user)).toContain("start <code>: connect your rental");
    expect(received).toHaveLength(0);
  });

  it("refuses a rental bought for another channel, and names it", async () => {
    const { code } = await whatsappRental({ channel: "Telegram" });
    const user = newUser();
    await send(user, `start ${code}`);
    expect(lastText(user)).toMatch(/bought for Telegram.*API also works/);
    expect(await db.chatBinding.count({ where: { platform: "WhatsApp", chatUser: user } })).toBe(0);
    await send(user, "start zzzz");
    expect(lastText(user)).toMatch(/not a rental code/);
  });

  it("splits a 15,000-character reply into three messages of at most 4,096 characters, the last pointing to the API", async () => {
    const { code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    const before = sentTo(user).length;
    await send(user, "long");
    const parts = texts(user).slice(before);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    expect(parts[0]).toMatch(/^word word/);
    expect(parts[2].endsWith(FULL_REPLY_POINTER)).toBe(true);
    for (const call of sentTo(user).slice(before)) expect(call.body).toMatchObject({ type: "text", to: user });
  });

  it("answers Meta before the owner does; a second message while the first waits is answered and not sent", async () => {
    const { code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    try {
      const res = await POST(whatsappMessageRequest(URL_, APP_SECRET, user, "wait", { phoneNumberId: PHONE_NUMBER_ID }));
      expect(res.status).toBe(200); // answered while the owner still holds the message
      // A ceiling, not a measure: the owner call runs after the answer, on a machine of any speed.
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 15_000 });
      expect((await POST(whatsappMessageRequest(URL_, APP_SECRET, user, "second", { phoneNumberId: PHONE_NUMBER_ID }))).status).toBe(200);
      await vi.waitFor(() => expect(lastText(user)).toContain("Still waiting for the agent's answer"), { timeout: 15_000 });
    } finally {
      release();
      await settleAfter();
      hold = null;
    }
    expect(lastText(user)).toBe("Echo: wait");
    expect(received.map((r) => JSON.parse(r.body).message)).toEqual(["wait"]);
  });

  it("reads text only: a photo from a connected user is acknowledged and reaches neither the owner nor the claims", async () => {
    const { code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    const messageId = `wamid.${randomBytes(8).toString("hex")}`;
    const value = {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "15550100123", phone_number_id: PHONE_NUMBER_ID },
      contacts: [{ profile: { name: "Ada" }, wa_id: user }],
      messages: [{ from: user, id: messageId, timestamp: "1764000000", type: "image", image: { id: "1", mime_type: "image/jpeg" } }],
    };
    const callsBefore = sentTo(user).length;
    const res = await POST(
      signed(JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: "1", changes: [{ field: "messages", value }] }] })),
    );
    await settleAfter();
    expect(res.status).toBe(200);
    expect(received).toHaveLength(0);
    expect(sentTo(user)).toHaveLength(callsBefore);
    expect(await db.chatDelivery.count({ where: { platform: "WhatsApp", key: messageId } })).toBe(0);
  });

  it("refuses a correctly signed body that is not JSON, or not an event, with a JSON 400, and writes nothing", async () => {
    const messageId = `wamid.${randomBytes(8).toString("hex")}`;
    const callsBefore = mock.calls().length;
    for (const body of [
      `{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"id":"${messageId}"`,
      "{}",
      '{"entry":[{"changes":null}]}',
    ]) {
      const res = await POST(signed(body));
      expect(res.status, body).toBe(400);
      expect(await res.json()).toEqual({ error: "This is not a WhatsApp webhook event." });
    }
    await settleAfter();
    expect(await db.chatDelivery.count({ where: { platform: "WhatsApp", key: messageId } })).toBe(0);
    expect(mock.calls().length).toBe(callsBefore);
    expect(received).toHaveLength(0);
  });

  it("refuses a body over 256 KiB (413), signed or not", async () => {
    const user = newUser();
    const big = whatsappMessageRequest(URL_, APP_SECRET, user, "x".repeat(256 * 1024), { phoneNumberId: PHONE_NUMBER_ID });
    const res = await POST(big);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.any(String) });
    await settleAfter();
    expect(sentTo(user)).toHaveLength(0);
  });

  it("answers 404 in JSON while a setting is missing, and 403 in JSON to a GET without the hub parameters", async () => {
    const saved = env.WHATSAPP_ACCESS_TOKEN;
    env.WHATSAPP_ACCESS_TOKEN = undefined;
    try {
      for (const res of [
        await POST(whatsappMessageRequest(URL_, APP_SECRET, newUser(), "help", { phoneNumberId: PHONE_NUMBER_ID })),
        await GET(new Request(`${URL_}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)),
      ]) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: "The WhatsApp bot is not set up on this service." });
      }
    } finally {
      env.WHATSAPP_ACCESS_TOKEN = saved;
    }
    const bare = await GET(new Request(URL_));
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ error: expect.any(String) });
  });

  it("tells the user's WhatsApp once, through the Cloud API, when the rental has ended", async () => {
    const { agent, rental, code } = await whatsappRental();
    const user = newUser();
    await send(user, `start ${code}`);
    await db.rental.update({ where: { id: rental.id }, data: { status: "cancelled" } });
    await endFinishedChats();
    await endFinishedChats();
    await sendNoticesTo(user);
    await sendNoticesTo(user);
    const notices = sentTo(user).filter((c) => String((c.body.text as { body?: string }).body).includes("was cancelled"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      method: "messages",
      auth: "Bearer EAAG-test-access-token",
      body: { messaging_product: "whatsapp", recipient_type: "individual", to: user, type: "text" },
    });
    expect(String((notices[0].body.text as { body: string }).body)).toContain(agent.name);
    expect(await db.chatNotice.findFirstOrThrow({ where: { platform: "WhatsApp", chatUser: user } })).toMatchObject({ status: "sent" });
    expect(await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id } })).toMatchObject({
      endReason: "rental_ended",
      openUser: null,
    });
  });

  it("a rental held by one WhatsApp number moves to another only with the renter's move command; the old number is told", async () => {
    const agent = await makeAgent({
      webhook: { url: hook.url, token },
      listing: { name: `WhatsApp Move ${randomBytes(2).toString("hex")}`, channels: ["API", "WhatsApp"] },
    });
    const account = await makeRenterAccount();
    const rental = await rentalOf(agent, account, { channel: "WhatsApp" });
    const code = rental.id.slice(0, 8);
    const [first, second] = [newUser(), newUser()];
    await send(first, `start ${code}`);
    await send(second, `start ${code}`);
    expect(lastText(second)).toMatch(/held by another WhatsApp account.*code alone cannot move it.*"Move to another chat account"/);

    const move = await createChatMove(rental.id, { account });
    expect(move).toMatchObject({ platform: "WhatsApp", token: expect.stringMatching(/^mv_[A-Za-z0-9_-]{22}$/) });
    await send(second, `start ${move.token}`);
    expect(lastText(second)).toMatch(new RegExp(`^Connected to ${agent.name}\\. It was moved here`));
    await send(second, "hello from the new phone");
    expect(lastText(second)).toBe("Echo: hello from the new phone");

    await sendNoticesTo(first);
    expect(lastText(first)).toMatch(/was moved to another WhatsApp account/);
    await send(first, "am I still here?");
    expect(lastText(first)).toMatch(/not connected to an agent/);
    // Used once: the same command from a third number is refused.
    const third = newUser();
    await send(third, `start ${move.token}`);
    expect(await db.chatBinding.findUnique({ where: { openUser: `WhatsApp:${third}` } })).toBeNull();
    expect(received.map((r) => JSON.parse(r.body).message)).toEqual(["hello from the new phone"]);
  });
});
