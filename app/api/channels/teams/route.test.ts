// The Teams bot end to end on the Chat SDK: activities signed as the Bot Framework signs them (real
// RS256 JWTs from a local key whose OpenID metadata and JWKS the platform mock serves) through the
// real route and adapter, the real database, a real local webhook as the owner, and the mock
// standing in for Microsoft Entra (the bot's token) and the Bot Framework connector (the replies).
import { generateKeyPairSync, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST, GET } = await import("@/app/api/channels/teams/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { teamsMessageRequest } = await import("@/lib/channels/dev/teams-requests");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { sendNoticesTo } = await import("@/test/chat-notices");

const APP_ID = "0000b07a-0000-4000-8000-000000000001";
const TENANT_ID = "0000d0e5-0000-4000-8000-000000000002";
const URL_ = "http://localhost/api/channels/teams";
let mock: ChatPlatformMock;
let serviceUrl: string;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const token = randomBytes(24).toString("base64url");
// A key the Bot Framework never published: a forger's.
const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "pem", type: "pkcs8" }).toString();

const settings = () => ({
  TEAMS_APP_ID: APP_ID,
  TEAMS_APP_PASSWORD: "teams-test-password",
  TEAMS_APP_TENANT_ID: TENANT_ID,
  TEAMS_LOGIN_URL: `${mock.url}/teams/login`,
  TEAMS_OPENID_METADATA_URL: `${mock.url}/teams/v1/.well-known/openidconfiguration`,
});

beforeAll(async () => {
  mock = await startChatPlatformMock();
  serviceUrl = `${mock.url}/teams/`;
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
const request = (
  user: string,
  text: string,
  options: { key?: string; activityId?: string; channelId?: string; claims?: Record<string, unknown>; serviceUrl?: string } = {},
) =>
  teamsMessageRequest(URL_, options.key ?? mock.signingKey(), user, text, {
    appId: APP_ID,
    serviceUrl: options.serviceUrl ?? serviceUrl,
    tenantId: TENANT_ID,
    activityId: options.activityId,
    channelId: options.channelId,
    claims: options.claims,
  });
async function send(user: string, text: string, options: Parameters<typeof request>[2] = {}) {
  const res = await POST(request(user, text, options));
  await settleAfter();
  return res;
}
const sentTo = (user: string) =>
  mock
    .calls()
    .filter(
      (c) =>
        c.platform === "Teams" &&
        c.method === "activities" &&
        c.body.type === "message" &&
        (c.body.conversation as { id?: string } | undefined)?.id === `a:dev-${user}`,
    );
const lastText = (user: string) => String(sentTo(user).at(-1)?.body.text ?? "");

async function teamsRental() {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `Teams Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "Teams"] },
  });
  const rental = await makeRental(agent.id, { channel: "Teams" });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

describe("/api/channels/teams", () => {
  it("answers a signed activity, through the connector at its serviceUrl with the bot's token (fetched once, kept)", async () => {
    const user = newUser();
    const tokensBefore = mock.calls().filter((c) => c.platform === "Teams" && c.method === "token").length;
    expect((await send(user, "help")).status).toBe(200);
    expect(lastText(user)).toContain("start <code>");
    await send(user, "help");
    const replies = sentTo(user);
    expect(replies).toHaveLength(2);
    const tokens = mock.calls().filter((c) => c.platform === "Teams" && c.method === "token");
    expect(tokens.length - tokensBefore).toBe(1);
    expect(tokens.at(-1)?.body).toMatchObject({
      grant_type: "client_credentials",
      client_id: APP_ID,
      client_secret: "teams-test-password",
    });
    // The bearer token is the one Microsoft Entra (the mock) issued the bot.
    expect(replies.every((reply) => reply.auth?.startsWith("Bearer ey"))).toBe(true);
    expect(new Set(replies.map((reply) => reply.auth)).size).toBe(1);
    const claims = JSON.parse(Buffer.from(String(replies[0].auth).split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ appid: APP_ID, aud: "https://api.botframework.com" });
    expect((await GET()).status).toBe(405);
  });

  it("refuses a request without a valid Bot Framework token (401) and touches nothing", async () => {
    // Every refused activity's id carries this mark: none of them may be claimed.
    const mark = randomBytes(6).toString("hex");
    let n = 0;
    const activityId = () => `${mark}-${n++}`;
    const calls = mock.calls().length;
    const unsigned = request(newUser(), "help", { activityId: activityId() });
    unsigned.headers.delete("authorization");
    const cases: [string, Request][] = [
      ["missing Authorization", unsigned],
      ["bad signature", request(newUser(), "help", { key: otherKey, activityId: activityId() })],
      ["wrong audience", request(newUser(), "help", { claims: { aud: "11111111-2222-3333-4444-555555555555" }, activityId: activityId() })],
      ["wrong issuer", request(newUser(), "help", { claims: { iss: "https://example.com" }, activityId: activityId() })],
      ["expired", request(newUser(), "help", { claims: { exp: Math.floor(Date.now() / 1000) - 3600 }, activityId: activityId() })],
      // Signed for the mock's connector, naming another: the bot's token must not go there.
      [
        "serviceUrl mismatch",
        request(newUser(), "help", { claims: { serviceurl: "https://smba.trafficmanager.net/teams/" }, activityId: activityId() }),
      ],
      // The Bot Framework's key, endorsed for msteams only, under an activity from another channel.
      ["key not endorsed for the channel", request(newUser(), "help", { channelId: "webchat", activityId: activityId() })],
    ];
    for (const [why, req] of cases) {
      const res = await POST(req);
      await settleAfter();
      expect(res.status, why).toBe(401);
      expect(await res.json(), why).toEqual({ error: "This request is not signed by Teams." });
    }
    expect(await db.chatDelivery.count({ where: { platform: "Teams", key: { contains: mark } } })).toBe(0);
    expect(
      mock
        .calls()
        .slice(calls)
        .filter((c) => c.method === "activities"),
    ).toEqual([]);
  });

  it("start <code> binds the chat user; a message then reaches the owner once as Teams, even delivered twice", async () => {
    const { agent, rental, code } = await teamsRental();
    const user = newUser();
    expect((await send(user, `start ${code}`)).status).toBe(200);
    expect(lastText(user)).toContain(`Connected to ${agent.name}`);
    const binding = await db.chatBinding.findFirstOrThrow({ where: { rentalId: rental.id, endedAt: null } });
    expect(binding).toMatchObject({ platform: "Teams", chatUser: `29:${user}` });

    const activityId = randomBytes(8).toString("hex");
    await send(user, "hello there", { activityId });
    await send(user, "hello there", { activityId });
    expect(received).toHaveLength(1);
    expect(await db.chatDelivery.count({ where: { platform: "Teams", key: { contains: activityId } } })).toBe(1);
    expect(JSON.parse(received[0].body)).toMatchObject({ message: "hello there", channel: "Teams", agentId: agent.id });
    expect(lastText(user)).toBe("Echo: hello there");
  });

  it("tells the chat when the rental ends, at the serviceUrl it wrote from", async () => {
    const { rental, code } = await teamsRental();
    const user = newUser();
    await send(user, `/start ${code}`);
    await db.rental.update({ where: { id: rental.id }, data: { status: "cancelled" } });
    await endFinishedChats();
    await sendNoticesTo(`29:${user}`);
    const notices = sentTo(user).filter((c) => String(c.body.text).includes("was cancelled, so this chat is disconnected"));
    expect(notices).toHaveLength(1);
    expect(notices[0].auth).toMatch(/^Bearer ey/);
  });

  it("is not there while the settings are missing (404)", async () => {
    Object.assign(env, { TEAMS_APP_ID: undefined, TEAMS_APP_PASSWORD: undefined });
    try {
      const res = await POST(request(newUser(), "help"));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "The Teams bot is not set up on this service." });
    } finally {
      Object.assign(env, settings());
    }
  });
});
