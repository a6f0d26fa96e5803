// The Slack bot end to end: signed slash commands and events through the real route, the real
// database, a real local webhook as the owner, and the platform mock recording what the app posts.
import { createHmac, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";
import { makeRenterAccount } from "@/test/renter-fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST } = await import("@/app/api/channels/slack/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { slackCommandRequest, slackMessageRequest, slackUrlVerificationRequest } = await import("@/lib/channels/dev/slack-requests");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { sendNoticesTo } = await import("@/test/chat-notices");
const { createChatMove } = await import("@/lib/channels/create-chat-move");

const SECRET = randomBytes(16).toString("hex");
const URL_ = "http://localhost/api/channels/slack";
const TEAM = "T0TEST";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: "xoxb-test", SLACK_API_URL: `${mock.url}/slack/` });
  hook = await startWebhook((req, res) => {
    received.push(req);
    const { message } = JSON.parse(req.body);
    if (message === "shout")
      return res.writeHead(200, { "content-type": "text/plain" }).end("Hey <!channel> look at <https://x.example|this> & that");
    if (message === "long") return res.writeHead(200, { "content-type": "text/plain" }).end("word ".repeat(2_000));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});
beforeEach(() => {
  received.length = 0;
});

const newUser = () => ({ team: TEAM, user: `U${randomInt(1e9, 9e9)}` });
async function command(who: { team: string; user: string }, text: string) {
  const res = await POST(slackCommandRequest(URL_, SECRET, who, text));
  await settleAfter();
  return res;
}
async function dm(who: { team: string; user: string }, text: string, options: Parameters<typeof slackMessageRequest>[4] = {}) {
  const res = await POST(slackMessageRequest(URL_, SECRET, who, text, options));
  await settleAfter();
  return res;
}
const posted = (who: { user: string }) =>
  mock
    .calls()
    .filter((c) => c.method === "chat.postMessage" && c.body.channel === `D${who.user}`)
    .map((c) => String(c.body.text));
const last = (who: { user: string }) => posted(who).at(-1) ?? "";

async function slackRental(overrides: Parameters<typeof makeRental>[1] = {}) {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `Slack Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "Telegram", "Slack"] },
  });
  const rental = await makeRental(agent.id, { channel: "Slack", ...overrides });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

describe("POST /api/channels/slack", () => {
  it("refuses a bad signature and a stale timestamp (401), writing nothing", async () => {
    // Their own event ids: other files claim Slack deliveries at the same time.
    const eventIds = [`EvForged${randomBytes(4).toString("hex")}`, `EvStale${randomBytes(4).toString("hex")}`];
    const forged = await POST(slackMessageRequest(URL_, "not-the-secret", newUser(), "hello", { eventId: eventIds[0] }));
    expect(forged.status).toBe(401);
    const stale = await POST(
      slackMessageRequest(URL_, SECRET, newUser(), "hello", { eventId: eventIds[1], timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ error: expect.stringContaining("not signed by Slack") });
    expect(await db.chatDelivery.count({ where: { platform: "Slack", key: { in: eventIds } } })).toBe(0);
  });

  it("answers Slack's url_verification with the challenge", async () => {
    const res = await POST(slackUrlVerificationRequest(URL_, SECRET, "challenge-123"));
    expect(await res.json()).toEqual({ challenge: "challenge-123" });
  });

  it("/agent start binds the user (answer in the app's DM); a DM then reaches the owner as Slack and the reply is posted", async () => {
    const { agent, rental, code } = await slackRental();
    const who = newUser();
    const res = await command(who, `start ${code}`);
    expect(await res.json()).toMatchObject({ response_type: "ephemeral" });
    expect(mock.calls().some((c) => c.method === "conversations.open" && c.body.users === who.user)).toBe(true);
    expect(last(who)).toContain(`Connected to ${agent.name}`);
    expect(await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, endedAt: null } })).toMatchObject({
      platform: "Slack",
      chatUser: `${TEAM}:${who.user}`,
      chatId: `D${who.user}`,
    });

    await dm(who, "hello slack");
    expect(last(who)).toBe("Echo: hello slack");
    expect(JSON.parse(received[0].body)).toMatchObject({ message: "hello slack", channel: "Slack" });
    expect(await db.chatCall.findFirstOrThrow({ where: { rentalId: rental.id } })).toMatchObject({ channel: "Slack" });

    await command(who, "status");
    expect(last(who)).toMatch(new RegExp(`Connected to ${agent.name}.*left\\)`));
    await command(who, "stop");
    expect(last(who)).toContain(`Disconnected from ${agent.name}`);
    await command(who, "");
    expect(last(who)).toContain("/agent start &lt;code&gt;"); // shown by Slack as /agent start <code>
  });

  it("ignores bot messages and edits, and a retried event reaches the owner once", async () => {
    const { code } = await slackRental();
    const who = newUser();
    await command(who, `start ${code}`);
    await dm(who, "from a bot", { extra: { bot_id: "B1" } });
    await dm(who, "an edit", { extra: { subtype: "message_changed" } });
    expect(received).toHaveLength(0);
    await dm(who, "once", { eventId: "EvSAME1" });
    await dm(who, "once", { eventId: "EvSAME1", retryNum: 1 });
    expect(received.map((r) => JSON.parse(r.body).message)).toEqual(["once"]);
  });

  it("a reply Slack failed with a 5xx is not posted again (it may have been); one refused with 429 is, after Retry-After", async () => {
    const { code } = await slackRental();
    const who = newUser();
    await command(who, `start ${code}`);
    mock.failNext("chat.postMessage", 500);
    await dm(who, "only once");
    expect(posted(who).filter((text) => text === "Echo: only once")).toHaveLength(1);

    mock.failNext("chat.postMessage", 429, { "Retry-After": "1" });
    await dm(who, "after the limit");
    // dm() waits for the work after the answer, the client's wait for Retry-After and its second try included.
    expect(posted(who).filter((text) => text === "Echo: after the limit")).toHaveLength(2);
  });

  it("a command delivered twice (the same signed request, the same trigger_id) runs once", async () => {
    const { agent, rental, code } = await slackRental();
    const who = newUser();
    const delivery = { timestamp: Math.floor(Date.now() / 1000), triggerId: `${randomInt(1e9, 9e9)}.1000000000.twice` };
    const first = await POST(slackCommandRequest(URL_, SECRET, who, `start ${code}`, delivery));
    const again = await POST(slackCommandRequest(URL_, SECRET, who, `start ${code}`, delivery));
    await settleAfter();
    expect(await first.json()).toMatchObject({ response_type: "ephemeral" });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe("");
    expect(posted(who).filter((t) => t.includes(`Connected to ${agent.name}`))).toHaveLength(1);
    expect(mock.calls().filter((c) => c.method === "conversations.open" && c.body.users === who.user)).toHaveLength(1);
    expect(await db.chatDelivery.findMany({ where: { platform: "Slack", key: `trigger:${delivery.triggerId}` } })).toHaveLength(1);
    expect(await db.chatBinding.count({ where: { rentalId: rental.id } })).toBe(1);

    // Each new invocation has a trigger_id of its own, and runs, the same text or not.
    const before = posted(who).length;
    await command(who, "status");
    await command(who, "status");
    expect(posted(who).slice(before)).toHaveLength(2);
  });

  it("refuses (400) a command without its trigger_id, running nothing", async () => {
    const who = newUser();
    const form = new URLSearchParams({ command: "/agent", text: "help", team_id: TEAM, user_id: who.user });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac("sha256", SECRET).update(`v0:${timestamp}:${form}`).digest("hex")}`;
    const res = await POST(
      new Request(URL_, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Slack-Request-Timestamp": timestamp,
          "X-Slack-Signature": signature,
        },
        body: form.toString(),
      }),
    );
    await settleAfter();
    expect(res.status).toBe(400);
    expect(posted(who)).toHaveLength(0);
  });

  it("escapes the owner's reply (no <!channel>, no links) and splits a long one", async () => {
    const { code } = await slackRental();
    const who = newUser();
    await command(who, `start ${code}`);
    await dm(who, "shout");
    expect(last(who)).toBe("Hey &lt;!channel&gt; look at &lt;https://x.example|this&gt; &amp; that");
    const before = posted(who).length;
    await dm(who, "long");
    const parts = posted(who).slice(before);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBeLessThanOrEqual(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(3_500);
  });

  it("the code alone does not move a rental to another user; the renter's move command does, and the old user is told", async () => {
    const { agent, rental, code } = await slackRental();
    const [holder, other] = [newUser(), newUser()];
    await command(holder, `start ${code}`);
    await command(other, `start ${code}`);
    expect(last(other)).toMatch(/held by another Slack account.*"Move to another chat account"/);
    const renter = await makeRenterAccount();
    await db.rental.update({ where: { id: rental.id }, data: { renterId: renter.id } });
    const { token } = await createChatMove(rental.id, { account: renter });
    await command(other, `start ${token}`);
    expect(last(other)).toContain(`Connected to ${agent.name}. It was moved here`);
    await sendNoticesTo(`${holder.team}:${holder.user}`); // queued with the move; the sender posts it
    expect(last(holder)).toBe(
      `This rental of ${agent.name} was moved to another Slack account from the renter's dashboard or checkout page, so this chat is disconnected from it.`,
    );
    await dm(holder, "still here?");
    expect(last(holder)).toMatch(/not connected to an agent/);
    expect(received).toHaveLength(0);
  });

  it("refuses a rental bought for Telegram, naming it, and tells the bound chat when its rental is disputed", async () => {
    const telegram = await slackRental({ channel: "Telegram" });
    const who = newUser();
    await command(who, `start ${telegram.code}`);
    expect(last(who)).toMatch(/bought for Telegram, not Slack/);

    const { rental, code } = await slackRental();
    await command(who, `start ${code}`);
    await db.rental.update({ where: { id: rental.id }, data: { status: "disputed" } });
    await endFinishedChats();
    await sendNoticesTo(`${who.team}:${who.user}`);
    // Disputed is not over: the words say it is frozen until the dispute is decided.
    expect(posted(who).filter((t) => t.startsWith("Your rental of"))).toEqual([
      expect.stringMatching(/ is disputed, so this chat is disconnected\. .*frozen in the escrow.*until the dispute is decided/),
    ]);
  });
});
