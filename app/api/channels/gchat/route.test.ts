// The Google Chat app end to end on the Chat SDK: events signed as Google Chat signs them (real RS256
// JWTs from chat@system.gserviceaccount.com, here a local key whose X.509 certificate the platform
// mock serves) through the real route and adapter, the real database, a real local webhook as the
// owner, and the mock standing in for Google's token endpoint and the Chat API (the replies).
// The adapter fetches the certificates from a fixed Google address: the global fetch's requests
// for it go to the mock (lib/channels/dev/google-certificates.ts, tests and npm run dev only).
import { generateKeyPairSync, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST, GET } = await import("@/app/api/channels/gchat/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { googleChatMessageRequest } = await import("@/lib/channels/dev/gchat-requests");
const { redirectGoogleCertificates } = await import("@/lib/channels/dev/google-certificates");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { sendNoticesTo } = await import("@/test/chat-notices");

const PROJECT_NUMBER = "123456789012";
const URL_ = "http://localhost/api/channels/gchat";
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const token = randomBytes(24).toString("base64url");
const pem = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "pem", type: "pkcs8" }).toString();
// A key Google never published: a forger's.
const otherKey = pem();
const serviceAccountKey = pem();

const settings = () => ({
  GOOGLE_CHAT_PROJECT_NUMBER: PROJECT_NUMBER,
  GOOGLE_CHAT_BOT_USER_ID: "users/100000000000000000001",
  GOOGLE_CHAT_CREDENTIALS: {
    client_email: "agent-rental@test-project.iam.gserviceaccount.com",
    private_key: serviceAccountKey,
    token_uri: `${mock.url}/google/token`,
  },
  GOOGLE_CHAT_API_URL: mock.url,
});

beforeAll(async () => {
  mock = await startChatPlatformMock();
  redirectGoogleCertificates(mock.url);
  Object.assign(env, settings());
  // The key, the Chat SDK instance and its adapters are made once, here rather than in a test's time.
  mock.signingKey();
  await (await (await import("@/lib/channels/chat-bot")).chatBot()).initialize();
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
const request = (user: string, text: string, options: { key?: string; messageId?: string; claims?: Record<string, unknown> } = {}) =>
  googleChatMessageRequest(URL_, options.key ?? mock.signingKey(), user, text, {
    projectNumber: PROJECT_NUMBER,
    messageId: options.messageId,
    claims: options.claims,
  });
async function send(user: string, text: string, options: Parameters<typeof request>[2] = {}) {
  const res = await POST(request(user, text, options));
  await settleAfter();
  return res;
}
const sentTo = (user: string) => mock.calls().filter((c) => c.platform === "GoogleChat" && c.method === `spaces/dev-${user}/messages`);
const lastText = (user: string) => String(sentTo(user).at(-1)?.body.text ?? "");

async function googleChatRental() {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `Google Chat Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "GoogleChat"] },
  });
  const rental = await makeRental(agent.id, { channel: "GoogleChat" });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

describe("/api/channels/gchat", () => {
  it("answers a signed event through the Chat API with the app's token", async () => {
    const user = newUser();
    expect((await send(user, "help")).status).toBe(200);
    expect(lastText(user)).toContain("start <code>");
    const reply = sentTo(user).at(-1)!;
    const issued = mock.calls().filter((c) => c.platform === "GoogleChat" && c.method === "token");
    expect(issued.length).toBeGreaterThanOrEqual(1);
    expect(issued[0].body.grant_type).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(reply.auth).toMatch(/^Bearer ya29\.mock-\d+$/);
    expect((await GET()).status).toBe(405);
  });

  it("refuses a request without a valid Google Chat token (401) and touches nothing", async () => {
    // Every refused message's id carries this mark: none of them may be claimed.
    const mark = randomBytes(6).toString("hex");
    let n = 0;
    const messageId = () => `${mark}-${n++}`;
    const calls = mock.calls().length;
    const unsigned = request(newUser(), "help", { messageId: messageId() });
    unsigned.headers.delete("authorization");
    const cases: [string, Request][] = [
      ["missing Authorization", unsigned],
      ["bad signature", request(newUser(), "help", { key: otherKey, messageId: messageId() })],
      ["wrong audience (another project)", request(newUser(), "help", { claims: { aud: "999999999999" }, messageId: messageId() })],
      ["wrong issuer", request(newUser(), "help", { claims: { iss: "someone@example.com" }, messageId: messageId() })],
      ["expired", request(newUser(), "help", { claims: { exp: Math.floor(Date.now() / 1000) - 3600 }, messageId: messageId() })],
    ];
    for (const [why, req] of cases) {
      const res = await POST(req);
      await settleAfter();
      expect(res.status, why).toBe(401);
      expect(await res.json(), why).toEqual({ error: "This request is not signed by Google Chat." });
    }
    expect(await db.chatDelivery.count({ where: { platform: "GoogleChat", key: { contains: mark } } })).toBe(0);
    expect(
      mock
        .calls()
        .slice(calls)
        .filter((c) => c.method.endsWith("/messages")),
    ).toEqual([]);
  });

  it("start <code> binds the chat user; a message then reaches the owner once as GoogleChat, even delivered twice", async () => {
    const { agent, rental, code } = await googleChatRental();
    const user = newUser();
    expect((await send(user, `start ${code}`)).status).toBe(200);
    expect(lastText(user)).toContain(`Connected to ${agent.name}`);
    const binding = await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, endedAt: null } });
    expect(binding).toMatchObject({ platform: "GoogleChat", chatUser: `users/${user}` });

    const messageId = randomBytes(8).toString("hex");
    await send(user, "hello there", { messageId });
    await send(user, "hello there", { messageId });
    expect(received).toHaveLength(1);
    expect(await db.chatDelivery.count({ where: { platform: "GoogleChat", key: { contains: messageId } } })).toBe(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ message: "hello there", channel: "GoogleChat", agentId: agent.id });
    expect(lastText(user)).toBe("Echo: hello there");
  });

  it("tells the direct message when the rental ends", async () => {
    const { rental, code } = await googleChatRental();
    const user = newUser();
    await send(user, `start ${code}`);
    await db.rental.update({ where: { id: rental.id }, data: { status: "cancelled" } });
    await endFinishedChats();
    await sendNoticesTo(`users/${user}`);
    const notices = sentTo(user).filter((c) => String(c.body.text).includes("was cancelled, so this chat is disconnected"));
    expect(notices).toHaveLength(1);
    expect(notices[0].auth).toMatch(/^Bearer ya29\.mock-\d+$/);
  });

  it("is not there while the settings are missing (404)", async () => {
    Object.assign(env, { GOOGLE_CHAT_PROJECT_NUMBER: undefined, GOOGLE_CHAT_CREDENTIALS: undefined });
    try {
      const res = await POST(request(newUser(), "help"));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "The Google Chat bot is not set up on this service." });
    } finally {
      Object.assign(env, settings());
    }
  });
});
