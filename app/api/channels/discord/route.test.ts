// The Discord bot end to end: interactions signed with a test Ed25519 key through the real route,
// the real database, a real local webhook as the owner, and the platform mock recording the edits.
import { generateKeyPairSync, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, type PlatformCall, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, type ReceivedRequest, startWebhook } from "@/test/fixtures";
import { makeRenterAccount } from "@/test/renter-fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { POST } = await import("@/app/api/channels/discord/route");
const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { discordCommandRequest, signedDiscordRequest } = await import("@/lib/channels/dev/discord-requests");
const { endFinishedChats } = await import("@/lib/channels/end-finished-chats");
const { sendNoticesTo } = await import("@/test/chat-notices");
const { createChatMove } = await import("@/lib/channels/create-chat-move");

const URL_ = "http://localhost/api/channels/discord";
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const stranger = generateKeyPairSync("ed25519").privateKey;
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const received: ReceivedRequest[] = [];
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, {
    DISCORD_APPLICATION_ID: "100000000000000042",
    DISCORD_PUBLIC_KEY: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex"),
    DISCORD_BOT_TOKEN: "discord-test-bot-token",
    DISCORD_API_URL: `${mock.url}/discord`,
  });
  hook = await startWebhook((req, res) => {
    received.push(req);
    const { message } = JSON.parse(req.body);
    if (message === "long") return res.writeHead(200, { "content-type": "text/plain" }).end("word ".repeat(2_000));
    if (message === "ping all") return res.writeHead(200, { "content-type": "text/plain" }).end("@everyone look");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ response: `Echo: ${message}` }));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});
beforeEach(() => {
  received.length = 0;
});

const newUser = () => ({ id: `${randomInt(1e9, 9e9)}${randomInt(1e6, 9e6)}` });
async function run(
  who: { id: string },
  command: string,
  options: Record<string, string> = {},
  extra: Parameters<typeof discordCommandRequest>[5] = {},
) {
  const res = await POST(discordCommandRequest(URL_, privateKey, who, command, options, extra));
  await settleAfter();
  return res;
}
const edits = () =>
  mock.calls().filter((c: PlatformCall) => c.platform === "Discord" && c.method.includes("/webhooks/100000000000000042/"));
const lastEdit = () => String(edits().at(-1)?.body.content ?? "");

async function discordRental(overrides: Parameters<typeof makeRental>[1] = {}) {
  const agent = await makeAgent({
    webhook: { url: hook.url, token },
    listing: { name: `Discord Agent ${randomBytes(2).toString("hex")}`, channels: ["API", "Discord"] },
  });
  const rental = await makeRental(agent.id, { channel: "Discord", ...overrides });
  return { agent, rental, code: rental.id.slice(0, 8) };
}

/** The rental's renter (an account of its own), whose dashboard consent makes a move command. */
async function renterOf(rentalId: string) {
  const renter = await makeRenterAccount();
  await db.rental.update({ where: { id: rentalId }, data: { renterId: renter.id } });
  return renter;
}

describe("POST /api/channels/discord", () => {
  it("answers PING with PONG, and refuses a request signed by another key (401), writing nothing", async () => {
    const pong = await POST(signedDiscordRequest(URL_, privateKey, { id: "1", type: 1 }));
    expect(await pong.json()).toEqual({ type: 1 });
    // Its own interaction id: other files claim Discord deliveries at the same time.
    const id = String(randomInt(1e9, 9e9));
    const forged = await POST(discordCommandRequest(URL_, stranger, newUser(), "status", {}, { id }));
    expect(forged.status).toBe(401);
    expect(await db.chatDelivery.count({ where: { platform: "Discord", key: id } })).toBe(0);
  });

  it("refuses (401) a well-signed interaction sent more than 5 minutes ago, or dated ahead: nothing claimed, the owner not called", async () => {
    const { code } = await discordRental();
    const who = newUser();
    await run(who, "start", { code });
    const before = { edits: edits().length };
    const seconds = Math.floor(Date.now() / 1000);
    const ids: string[] = [];
    for (const timestamp of [seconds - 301, seconds - 86_400, seconds + 3_600]) {
      ids.push(String(randomInt(1e9, 9e9)));
      const res = await run(who, "chat", { message: "replayed" }, { timestamp, id: ids.at(-1) });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "This request is not signed by Discord." });
    }
    expect(await db.chatDelivery.count({ where: { platform: "Discord", key: { in: ids } } })).toBe(0);
    expect(edits()).toHaveLength(before.edits);
    expect(received).toHaveLength(0);
  });

  it("defers at once (visible to the sender only), then edits in the answer: start, chat, status, stop", async () => {
    const { agent, rental, code } = await discordRental();
    const who = newUser();
    const res = await run(who, "start", { code });
    expect(await res.json()).toEqual({ type: 5, data: { flags: 64 } });
    expect(lastEdit()).toContain(`Connected to ${agent.name}`);
    expect(edits().at(-1)?.method).toMatch(/^PATCH \/webhooks\/100000000000000042\/tok-[\w]+\/messages\/@original$/);
    expect(edits().at(-1)?.body.allowed_mentions).toEqual({ parse: [] });

    await run(who, "chat", { message: "hi discord" }, { where: "guild" });
    expect(lastEdit()).toBe("Echo: hi discord");
    expect(JSON.parse(received[0].body)).toMatchObject({ message: "hi discord", channel: "Discord" });
    expect(await db.chatCall.findFirstOrThrow({ where: { rentalId: rental.id } })).toMatchObject({ channel: "Discord" });

    await run(who, "status");
    expect(lastEdit()).toMatch(/left\)/);
    await run(who, "stop");
    expect(lastEdit()).toContain(`Disconnected from ${agent.name}`);
  });

  it("a repeated interaction id reaches the owner once; a long reply goes out in parts within 2,000 characters", async () => {
    const { code } = await discordRental();
    const who = newUser();
    await run(who, "start", { code });
    await run(who, "chat", { message: "same" }, { id: "9000000000000001" });
    await run(who, "chat", { message: "same" }, { id: "9000000000000001" });
    expect(received.filter((r) => JSON.parse(r.body).message === "same")).toHaveLength(1);

    const before = edits().length;
    await run(who, "chat", { message: "long" });
    const parts = edits().slice(before);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBeLessThanOrEqual(3);
    for (const part of parts) expect(String(part.body.content).length).toBeLessThanOrEqual(2_000);
    expect(parts.slice(1).every((p) => p.method.startsWith("POST ") && p.body.flags === 64)).toBe(true);
    // The edit of "thinking…" is ephemeral from its deferral; an edit may not set that flag.
    expect(parts[0].method.startsWith("PATCH ")).toBe(true);
    expect(parts[0].body).not.toHaveProperty("flags");
  });

  it("mentions in a reply ping nobody", async () => {
    const { code } = await discordRental();
    const who = newUser();
    await run(who, "start", { code });
    await run(who, "chat", { message: "ping all" });
    expect(edits().at(-1)?.body).toMatchObject({ content: "@everyone look", allowed_mentions: { parse: [] } });
  });

  it("the code alone does not move a rental to another user; the renter's move command does, and the old user is told in a DM", async () => {
    const { agent, rental, code } = await discordRental();
    const [holder, other] = [newUser(), newUser()];
    await run(holder, "start", { code });
    await run(other, "start", { code });
    expect(lastEdit()).toMatch(/held by another Discord account.*"Move to another chat account"/);
    const { token } = await createChatMove(rental.id, { account: await renterOf(rental.id) });
    await run(other, "start", { code: token });
    expect(lastEdit()).toContain(`Connected to ${agent.name}. It was moved here`);
    // Queued with the move; the sender DMs it.
    expect(mock.calls().some((c) => c.method === `POST /channels/dm-${holder.id}/messages`)).toBe(false);
    await sendNoticesTo(holder.id);
    const notice = mock.calls().find((c) => c.method === `POST /channels/dm-${holder.id}/messages`);
    expect(String(notice?.body.content)).toContain("was moved to another Discord account from the renter's dashboard");
    expect(await db.chatBinding.findUnique({ where: { openUser: `Discord:${other.id}` } })).toMatchObject({ rentalId: rental.id });
  });

  it("tells the user in a DM when the rental ends", async () => {
    const { rental, code } = await discordRental();
    const who = newUser();
    await run(who, "start", { code });
    await db.rental.update({ where: { id: rental.id }, data: { status: "cancelled" } });
    await endFinishedChats();
    await sendNoticesTo(who.id);
    expect(
      mock
        .calls()
        .some((c) => c.method === "POST /users/@me/channels" && c.body.recipient_id === who.id && c.auth === "Bot discord-test-bot-token"),
    ).toBe(true);
    const notice = mock.calls().find((c) => c.method === `POST /channels/dm-${who.id}/messages`);
    expect(String(notice?.body.content)).toContain("was cancelled, so this chat is disconnected");
  });
});
