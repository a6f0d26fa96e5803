// Chat notices on the real database, against a local stand-in for the Telegram Bot API that
// answers per chat: queueing sends nothing; the sender sends each notice once (two runs at once
// too), waits out a 429's retry_after, tries a 5xx again with a doubling delay, gives a refusal up
// at once, and never repeats a try that was cut off. Clocks are given (test/send-clock.ts).
import { randomInt } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { MAX_NOTICE_ATTEMPTS, sendChatNotices } from "@/lib/channels/send-chat-notices";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { jumpingClock } from "@/test/send-clock";

// Every due notice of its database is the sender's: this file's only.
isolateDatabase("chat_notices");

const MINUTE = 60_000;
const T0 = new Date("2030-04-01T09:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

// What Telegram answers each chat: a list of answers used up in order, then ok.
const answers = new Map<string, { status: number; body: unknown }[]>();
let telegram: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  telegram = await startWebhook((req, res) => {
    const chatId = String(JSON.parse(req.body).chat_id);
    const answer = answers.get(chatId)?.shift() ?? {
      status: 200,
      body: { ok: true, result: { message_id: 1, date: 0, chat: { id: Number(chatId), type: "private" } } },
    };
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
  Object.assign(env, { TELEGRAM_BOT_TOKEN: "1:notice-test", TELEGRAM_API_URL: `http://127.0.0.1:${telegram.port}` });
});
afterAll(() => telegram.close());
afterEach(async () => {
  vi.restoreAllMocks();
  await db.chatNotice.updateMany({
    where: { status: { in: ["queued", "pending", "failed"] } },
    data: { status: "failed", nextAttemptAt: null },
  });
});

const refusal = (error_code: number, description: string, parameters: object = {}) => ({
  status: error_code,
  body: { ok: false, error_code, description, parameters },
});
const chat = () => String(randomInt(1, 2 ** 40));
const notice = (chatId: string, key = `test:${chatId}`) => ({
  target: { platform: "Telegram" as const, id: chatId, chatId },
  text: `Hello ${chatId}`,
  idempotencyKey: key,
});
const sentTo = (chatId: string) => telegram.received.filter((r) => String(JSON.parse(r.body).chat_id) === chatId);
const row = (chatId: string) => db.chatNotice.findUniqueOrThrow({ where: { idempotencyKey: `test:${chatId}` } });
const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});

describe("queueChatNotices", () => {
  it("stores the notice queued, due at once, and calls no platform; the same key again, or a chat it cannot reach, queues nothing", async () => {
    const id = chat();
    expect(await queueChatNotices([notice(id)], db, T0)).toBe(1);
    expect(await queueChatNotices([{ ...notice(id), text: "Changed" }], db, T0)).toBe(0);
    // Telegram writes to a user only in their chat.
    expect(await queueChatNotices([{ ...notice(chat()), target: { platform: "Telegram", id: "7", chatId: null } }], db, T0)).toBe(0);
    expect(await row(id)).toMatchObject({
      platform: "Telegram",
      chatUser: id,
      chatId: id,
      text: `Hello ${id}`,
      status: "queued",
      attempts: 0,
      nextAttemptAt: T0,
    });
    expect(sentTo(id)).toHaveLength(0);
  });
});

describe("sendChatNotices (the sender)", () => {
  it("sends each queued notice exactly once, even with two runs at once", async () => {
    const ids = Array.from({ length: 25 }, chat);
    await queueChatNotices(
      ids.map((id) => notice(id)),
      db,
      T0,
    );
    const clock = jumpingClock(T0);
    const [a, b] = await Promise.all([sendChatNotices({ clock }), sendChatNotices({ clock })]);
    expect(a.sent + b.sent).toBe(25);
    expect(a.tried + b.tried).toBe(25);
    for (const id of ids) {
      expect(sentTo(id)).toHaveLength(1);
      expect(JSON.parse(sentTo(id)[0].body)).toMatchObject({ chat_id: id, text: `Hello ${id}` });
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, nextAttemptAt: null, error: null, lastAttemptAt: T0 });
    }
    expect(await sendChatNotices({ clock: jumpingClock(at(24 * 60 * MINUTE)) })).toMatchObject({ tried: 0 });
    expect(ids.every((id) => sentTo(id).length === 1)).toBe(true);
  });

  it("a 429 is tried again after Telegram's retry_after", async () => {
    quiet();
    const id = chat();
    answers.set(id, [refusal(429, "Too Many Requests: retry after 30", { retry_after: 30 })]);
    await queueChatNotices([notice(id)], db, T0);
    expect(await sendChatNotices({ clock: jumpingClock(T0) })).toMatchObject({ tried: 1, failed: 1, remaining: 0 });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: at(30_000) });
    expect(await sendChatNotices({ clock: jumpingClock(at(29_999)) })).toMatchObject({ tried: 0 });
    expect(await sendChatNotices({ clock: jumpingClock(at(30_000)) })).toMatchObject({ tried: 1, sent: 1 });
    expect(sentTo(id)).toHaveLength(2);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
  });

  it(`a server error is tried again 1, 2, 4 … minutes later, and given up after ${MAX_NOTICE_ATTEMPTS} tries`, async () => {
    const log = quiet();
    const id = chat();
    answers.set(
      id,
      Array.from({ length: MAX_NOTICE_ATTEMPTS }, () => refusal(502, "Bad Gateway")),
    );
    await queueChatNotices([notice(id)], db, T0);
    let now = T0;
    for (let tries = 1; tries <= MAX_NOTICE_ATTEMPTS; tries++) {
      const last = tries === MAX_NOTICE_ATTEMPTS;
      expect(await sendChatNotices({ clock: jumpingClock(now) })).toMatchObject({ tried: 1, failed: last ? 0 : 1, gaveUp: last ? 1 : 0 });
      if (!last) {
        const next = new Date(now.getTime() + MINUTE * 2 ** (tries - 1));
        expect((await row(id)).nextAttemptAt).toEqual(next);
        now = next;
      }
    }
    expect(await row(id)).toMatchObject({
      status: "failed",
      attempts: MAX_NOTICE_ATTEMPTS,
      nextAttemptAt: null,
      error: "gave up after 8 tries: Telegram: 502 Bad Gateway",
    });
    expect(String(log.mock.calls.at(-1)![0])).toBe(
      `[channels] Telegram notice test:${id} not sent (try 8 of 8): gave up after 8 tries: Telegram: 502 Bad Gateway`,
    );
    expect(await sendChatNotices({ clock: jumpingClock(at(24 * 60 * MINUTE)) })).toMatchObject({ tried: 0 });
    expect(sentTo(id)).toHaveLength(MAX_NOTICE_ATTEMPTS);
  });

  it("a refusal of the chat (the user blocked the bot) is given up at once", async () => {
    quiet();
    const id = chat();
    answers.set(id, [refusal(403, "Forbidden: bot was blocked by the user")]);
    await queueChatNotices([notice(id)], db, T0);
    expect(await sendChatNotices({ clock: jumpingClock(T0) })).toMatchObject({ tried: 1, gaveUp: 1 });
    expect(await row(id)).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
      error: "refused: Telegram: 403 Forbidden: bot was blocked by the user",
    });
  });

  it("a try cut off mid-way (the process stopped) is given up once its lease runs out, never sent again: it may have arrived", async () => {
    const id = chat();
    await queueChatNotices([notice(id)], db, T0);
    await db.chatNotice.update({
      where: { idempotencyKey: `test:${id}` },
      data: { status: "pending", attempts: 1, nextAttemptAt: at(10 * MINUTE) },
    });
    expect(await sendChatNotices({ clock: jumpingClock(at(10 * MINUTE - 1)) })).toMatchObject({ tried: 0, gaveUp: 0 });
    expect(await sendChatNotices({ clock: jumpingClock(at(10 * MINUTE)) })).toMatchObject({ tried: 0, gaveUp: 1 });
    expect(await row(id)).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(sentTo(id)).toHaveLength(0);
  });

  it("only the notices asked for, when given (tests on the shared database)", async () => {
    const [mine, theirs] = [chat(), chat()];
    await queueChatNotices([notice(mine), notice(theirs)], db, T0);
    const { id } = await row(mine);
    expect(await sendChatNotices({ clock: jumpingClock(T0), only: [id] })).toMatchObject({ tried: 1, sent: 1, remaining: 0 });
    expect(sentTo(theirs)).toHaveLength(0);
    expect(await row(theirs)).toMatchObject({ status: "queued" });
  });
});
