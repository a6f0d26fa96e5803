// The WhatsApp bot end to end on the Chat SDK: Meta-signed events (real HMAC-SHA256 with the app
// secret) through the real route and adapter, the real database, a real local webhook as the
// owner, and the platform mock standing in for the Cloud API, recording what the bot sends.
import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST, GET, PUT } = await import("@/app/api/channels/whatsapp/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { whatsappMessageRequest } = await import("@/lib/channels/dev/whatsapp-requests");

const APP_SECRET = randomBytes(24).toString("hex");
const VERIFY_TOKEN = randomBytes(16).toString("base64url");
const PHONE_NUMBER_ID = "106540352242922";
const URL_ = "http://localhost/api/channels/whatsapp";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    WHATSAPP_ACCESS_TOKEN: "EAAG-test-access-token",
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_API_URL: `${mock.url}/whatsapp`,
  });
  hook = await startWebhook(async (req, res) => {
    received.push(req);
    const { message } = JSON.parse(req.body);
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

async function whatsappRental() {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `WhatsApp Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "WhatsApp"] },
  });
  const rental = await makeRental(agent.id, { channel: "WhatsApp" });
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
    const before = await db.chatDelivery.count({ where: { platform: "WhatsApp" } });
    const res = await POST(whatsappMessageRequest(URL_, "not-the-app-secret", newUser(), "help", { phoneNumberId: PHONE_NUMBER_ID }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringContaining("not signed by WhatsApp") });
    expect(await db.chatDelivery.count({ where: { platform: "WhatsApp" } })).toBe(before);
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
});
