// The Telegram bot end to end: signed updates through the real route, the real database and
// limiters, a real local webhook as the owner, and the platform mock recording what the bot sends.
import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, type PlatformCall, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST, GET } = await import("@/app/api/channels/telegram/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { telegramMessageRequest } = await import("@/lib/channels/dev/telegram-requests");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { sendNoticesTo } = await import("@/test/chat-notices");

const SECRET = randomBytes(24).toString("base64url");
const URL_ = "http://localhost/api/channels/telegram";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
let hold: Promise<void> | null = null;
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    TELEGRAM_BOT_TOKEN: "123456:test-token",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_BOT_USERNAME: "agent_rental_test_bot",
    TELEGRAM_API_URL: `${mock.url}/telegram`,
  });
  hook = await startWebhook(async (req, res) => {
    received.push(req);
    const { message } = JSON.parse(req.body);
    if (message === "wait") await hold;
    if (message === "never") return; // no answer: the webhook timeout runs out
    if (message === "long") return res.writeHead(200, { "content-type": "text/plain" }).end(`${"word ".repeat(2_000)}`);
    if (message === "object")
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ content: "", response: "from an object" }));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});
beforeEach(() => {
  received.length = 0;
});

const newUser = () => ({ id: randomInt(1, 2 ** 40), username: `u${randomBytes(3).toString("hex")}` });
async function send(user: { id: number; username?: string }, text: string, updateId?: number) {
  const res = await POST(telegramMessageRequest(URL_, SECRET, user, text, updateId));
  await settleAfter();
  return res;
}
const sentTo = (user: { id: number }) => mock.calls().filter((c) => c.method === "sendMessage" && c.body.chat_id === String(user.id));
const lastText = (user: { id: number }) => String(sentTo(user).at(-1)?.body.text ?? "");

async function telegramRental(overrides: Parameters<typeof makeRental>[1] = {}) {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `Bot Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "Telegram", "Discord", "Slack"] },
  });
  const rental = await makeRental(agent.id, { channel: "Telegram", ...overrides });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

describe("POST /api/channels/telegram", () => {
  it("refuses a request without the secret token (401), and touches nothing", async () => {
    // Its own update id: other files claim Telegram updates meanwhile.
    const updateId = randomInt(2 ** 40, 2 ** 47);
    const res = await POST(telegramMessageRequest(URL_, "wrong-secret-0123456789", newUser(), "/help", updateId));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringContaining("not signed by Telegram") });
    expect(await db.chatDelivery.findUnique({ where: { platform_key: { platform: "Telegram", key: String(updateId) } } })).toBeNull();
  });

  it("answers 404 while the bot's settings are missing, and 405 to other methods", async () => {
    const saved = env.TELEGRAM_BOT_TOKEN;
    Object.assign(env, { TELEGRAM_BOT_TOKEN: undefined });
    try {
      const res = await POST(telegramMessageRequest(URL_, SECRET, newUser(), "/help"));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    } finally {
      Object.assign(env, { TELEGRAM_BOT_TOKEN: saved });
    }
    expect((await GET()).status).toBe(405);
  });

  it("/start <code> binds the chat user and names the agent and the end; a message then reaches the owner as Telegram", async () => {
    const { agent, rental, code } = await telegramRental();
    const user = newUser();
    expect((await send(user, `/start ${code}`)).status).toBe(200);
    expect(lastText(user)).toContain(`Connected to ${agent.name}`);
    expect(lastText(user)).toMatch(/ends .*UTC/);
    const binding = await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, endedAt: null } });
    expect(binding).toMatchObject({
      platform: "Telegram",
      chatUser: String(user.id),
      chatId: String(user.id),
      chatLabel: `@${user.username}`,
    });

    await send(user, "hello there");
    expect(lastText(user)).toBe("Echo: hello there");
    const body = JSON.parse(received[0].body);
    expect(body).toMatchObject({ type: "message", message: "hello there", channel: "Telegram", agentId: agent.id });
    expect(body.sessionKey).toMatch(/^chat_[0-9a-f]{40}$/);
    expect(body.sessionKey).not.toContain(rental.id.slice(0, 8));
    expect(mock.calls().some((c) => c.method === "sendChatAction" && c.body.chat_id === String(user.id))).toBe(true);
    const call = await db.chatCall.findFirstOrThrow({ where: { rentalId: rental.id } });
    expect(call).toMatchObject({ channel: "Telegram", statusCode: 200 });

    // The same conversation key for the next message; the owner's headers as on the API.
    await send(user, "again");
    expect(JSON.parse(received[1].body).sessionKey).toBe(body.sessionKey);
  });

  it("a retried update (same update_id) reaches the owner once", async () => {
    const { code } = await telegramRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    const updateId = randomInt(1, 2 ** 47);
    await send(user, "only once", updateId);
    await send(user, "only once", updateId);
    expect(received.filter((r) => JSON.parse(r.body).message === "only once")).toHaveLength(1);
  });

  it("answers before the owner does; a second message while the first waits is not sent", async () => {
    const { code } = await telegramRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const res = await POST(telegramMessageRequest(URL_, SECRET, user, "wait"));
    expect(res.status).toBe(200); // answered while the owner still holds the message
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await POST(telegramMessageRequest(URL_, SECRET, user, "second"));
    await vi.waitFor(() => expect(lastText(user)).toContain("Still waiting for the agent's answer"));
    release();
    await settleAfter();
    hold = null;
    expect(lastText(user)).toBe("Echo: wait");
    expect(received.map((r) => JSON.parse(r.body).message)).toEqual(["wait"]);
  });

  it("says so when the agent does not answer in time", async () => {
    const { code } = await telegramRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    await send(user, "never");
    expect(lastText(user)).toMatch(/did not answer in time/);
  });

  it("splits a 10 KB reply into parts within 4,096 characters; an object reply shows its text", async () => {
    const { code } = await telegramRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    const before = sentTo(user).length;
    await send(user, "long");
    const parts = sentTo(user)
      .slice(before)
      .map((c: PlatformCall) => String(c.body.text));
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
    expect(parts.join(" ").replace(/\s+/g, " ")).toContain("word word");
    await send(user, "object");
    expect(lastText(user)).toBe("from an object");
  });

  it("refuses rentals of another channel, rentals held by another chat user, and unusable rentals, with the reason", async () => {
    const discord = await telegramRental({ channel: "Discord" });
    const user = newUser();
    await send(user, `/start ${discord.code}`);
    expect(lastText(user)).toMatch(/bought for Discord.*API also works/);

    const held = await telegramRental();
    const owner = newUser();
    await send(owner, `/start ${held.code}`);
    await send(user, `/start ${held.code}`);
    expect(lastText(user)).toMatch(/held by another Telegram account.*code alone cannot move it.*"Move to another chat account"/);

    const later = await telegramRental({ startsInSeconds: 3600 });
    await send(user, `/start ${later.code}`);
    expect(lastText(user)).toMatch(/has not started yet/);

    await send(user, "/start zzzz");
    expect(lastText(user)).toMatch(/not a rental code/);
  });

  it("switches on a second /start, and /status and /stop say where the user stands", async () => {
    const first = await telegramRental();
    const second = await telegramRental();
    const user = newUser();
    await send(user, `/start ${first.code}`);
    await send(user, `/start ${second.code}`);
    expect(lastText(user)).toContain(`Connected to ${second.agent.name}. You were connected to ${first.agent.name} before`);
    await send(user, "/status");
    expect(lastText(user)).toMatch(new RegExp(`Connected to ${second.agent.name}.*left\\)`));
    await send(user, "/stop");
    expect(lastText(user)).toContain(`Disconnected from ${second.agent.name}`);
    await send(user, "hello?");
    expect(lastText(user)).toMatch(/not connected to an agent/);
    expect(await db.chatBinding.count({ where: { chatUser: String(user.id), endedAt: null } })).toBe(0);
  });

  it("limits wrong codes per chat user: the sixth in an hour is refused without a lookup", async () => {
    const user = newUser();
    for (let i = 0; i < 5; i++) {
      await send(user, `/start ${randomBytes(4).toString("hex")}`);
      expect(lastText(user)).toMatch(/No rental has this code/);
    }
    await send(user, `/start ${randomBytes(4).toString("hex")}`);
    expect(lastText(user)).toMatch(/Too many wrong rental codes from your account/);
    // Another user is not affected.
    const other = newUser();
    await send(other, `/start ${randomBytes(4).toString("hex")}`);
    expect(lastText(other)).toMatch(/No rental has this code/);
  });

  it("tells a bound chat once when its rental has ended, and ends the binding", async () => {
    const { agent, rental, code } = await telegramRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    await db.rental.update({ where: { id: rental.id }, data: { status: "cancelled" } });
    await endFinishedChats();
    await endFinishedChats();
    // Queued once by the sweep (two runs), sent once by the sender (two runs).
    await sendNoticesTo(String(user.id));
    await sendNoticesTo(String(user.id));
    const notices = sentTo(user).filter((c) => String(c.body.text).includes("was cancelled, so this chat is disconnected"));
    expect(notices).toHaveLength(1);
    expect(String(notices[0].body.text)).toContain(agent.name);
    expect(await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id } })).toMatchObject({
      endReason: "rental_ended",
      openUser: null,
    });
  });
});
