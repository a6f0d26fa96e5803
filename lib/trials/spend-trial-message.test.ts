// A free trial's code on the chat path (issue 29), against the real database and a local webhook:
// the owner is told it is a trial (`trial: true`, channel set); after N messages chat answers 402
// with the checkout's address; a concurrent burst gets at most N answers; a message the owner did
// not answer is given back; the owner ending the offer stops the trial at once; /v1/status shows
// the messages left and stays the spec's body for paid rentals.

import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as CHAT } from "@/app/api/v1/chat/route";
import { GET as STATUS } from "@/app/api/v1/status/route";
import { updateAgent } from "@/lib/agents/update-agent";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { startChat } from "@/lib/channels/start-chat";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { sendChatMessage } from "@/lib/rentals/chat-client";
import { statusResponseSchema } from "@/lib/schemas/renter-api";
import { startTrial } from "@/lib/trials/start-trial";
import { renterRequest } from "@/test/api-requests";
import { makeOwner, makeOwnerAgent, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";
import { makeRenterAccount } from "@/test/renter-fixtures";

type Webhook = Awaited<ReturnType<typeof startWebhook>>;
let hook: Webhook;
beforeAll(async () => {
  hook = await startWebhook((req, res) => {
    const { message } = JSON.parse(req.body);
    if (message === "fail") return res.writeHead(500).end("boom");
    // A little latency, so a burst of messages is really in flight at once.
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`)), 20);
  });
});
afterAll(() => hook.close());

const token = "t".repeat(40);
async function trialOf(trialMessages: number) {
  const owner = await makeOwner();
  const agent = await makeOwnerAgent(owner.id, { listing: { trialMessages }, webhook: { url: hook.url, token } });
  const renter = await makeRenterAccount({ email: true });
  const { trial } = await startTrial({ accountId: renter.id, agentId: agent.id, client: uniqueIp() });
  return { owner, agent, trial, code: trial.id.slice(0, 8) };
}
const chat = (code: string, message: string) => CHAT(renterRequest("chat", { code, body: { message } }));
const status = async (code: string) => (await STATUS(renterRequest("status", { code }))).json();
const deliveredTo = (agentId: string) => hook.received.filter((r) => JSON.parse(r.body).agentId === agentId);

describe("a free trial on the chat path", () => {
  it("answers N messages with trial: true and the channel in the owner's body, then 402 with the checkout's address", async () => {
    const { agent, code } = await trialOf(2);
    for (const message of ["one", "two"]) {
      const res = await chat(code, message);
      expect(res.status).toBe(200);
      expect((await res.json()).response).toBe(`Echo: ${message}`);
    }
    const res = await chat(code, "three");
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      error: `This free trial has used all its free messages. Rent ${agent.name} to keep talking: ${appUrl()}/agents/${agent.id}/rent`,
    });
    const bodies = deliveredTo(agent.id).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.message)).toEqual(["one", "two"]);
    for (const body of bodies) {
      expect(body).toMatchObject({ type: "message", channel: "API", trial: true, rental: { duration_type: "month" } });
    }
  });

  it("works on a chat bot: /start <code> binds it (a trial is bought for no channel), the owner gets channel Telegram and trial: true", async () => {
    const { agent, code } = await trialOf(1);
    const user: ChatUser = { platform: "Telegram", id: String(randomInt(1, 2 ** 40)), chatId: null, label: "@tester" };
    expect(await startChat(user, code)).toContain(`Connected to ${agent.name}`);
    expect(await relayChatMessage(user, "from telegram")).toEqual({ ok: true, text: "Echo: from telegram" });
    const [body] = deliveredTo(agent.id).map((r) => JSON.parse(r.body));
    expect(body).toMatchObject({ channel: "Telegram", trial: true, message: "from telegram" });
    const over = await relayChatMessage(user, "one more");
    expect(over.ok).toBe(false);
    expect(over.text).toBe(
      `This free trial has used all its free messages. Rent ${agent.name} to keep talking: ${appUrl()}/agents/${agent.id}/rent`,
    );
  });

  it("works in the playground (its own client of POST /api/v1/chat): the reply, then the 402's sentence with the link", async () => {
    const { agent, code } = await trialOf(1);
    const fetcher: typeof fetch = async (_input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("x-forwarded-for", uniqueIp());
      return CHAT(new Request("http://localhost/api/v1/chat", { ...init, headers }));
    };
    expect(await sendChatMessage(code, "hi", fetcher)).toEqual({ ok: true, reply: "Echo: hi", json: false });
    expect(await sendChatMessage(code, "more", fetcher)).toEqual({
      ok: false,
      error: `The free trial is over (402). The server said: “This free trial has used all its free messages. Rent ${agent.name} to keep talking: ${appUrl()}/agents/${agent.id}/rent”`,
    });
  });

  it("a paid rental's body has no trial field", async () => {
    const owner = await makeOwner();
    const agent = await makeOwnerAgent(owner.id, { webhook: { url: hook.url, token } });
    const rental = await makeRental(agent.id);
    expect((await chat(rental.id.slice(0, 8), "paid")).status).toBe(200);
    const [body] = deliveredTo(agent.id).map((r) => JSON.parse(r.body));
    expect(body).not.toHaveProperty("trial");
    expect(await status(rental.id.slice(0, 8))).not.toHaveProperty("trial");
  });

  it("a concurrent burst gets at most N answers; the owner is asked N times", async () => {
    const { agent, code } = await trialOf(5);
    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => chat(code, `burst ${i}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(9);
    expect(deliveredTo(agent.id)).toHaveLength(5);
    expect((await status(code)).trial).toEqual({ messages_left: 0 });
  });

  it("a message the owner did not answer (502) is given back", async () => {
    const { code } = await trialOf(1);
    expect((await chat(code, "fail")).status).toBe(502);
    expect((await status(code)).trial).toEqual({ messages_left: 1 });
    expect((await chat(code, "works")).status).toBe(200);
    expect((await chat(code, "again")).status).toBe(402);
  });

  it("/v1/status: active, every field of the spec, and the messages left counting down", async () => {
    const { agent, trial, code } = await trialOf(3);
    const before = await status(code);
    expect(before).toEqual({
      rental: {
        id: trial.id,
        status: "active",
        starts_at: trial.startsAt.toISOString(),
        ends_at: trial.endsAt.toISOString(),
        duration_type: "month",
        channel: "API",
        time_remaining_seconds: expect.any(Number),
      },
      agent: { id: agent.id, name: agent.name, description: agent.description },
      trial: { messages_left: 3 },
    });
    // The OpenAPI document's StatusResponse is built from this schema: the trial's body conforms.
    expect(statusResponseSchema.parse(before)).toEqual(before);
    await chat(code, "hello");
    expect((await status(code)).trial).toEqual({ messages_left: 2 });
  });

  it("the owner ending the offer stops a running trial at once (402), and making it again does not revive it", async () => {
    const { owner, agent, code } = await trialOf(5);
    expect((await chat(code, "before")).status).toBe(200);
    await updateAgent(owner.id, agent.id, { trialMessages: null });
    const res = await chat(code, "after");
    expect(res.status).toBe(402);
    expect((await res.json()).error).toBe(
      `The owner has ended this agent's free trial offer. Rent ${agent.name} to keep talking: ${appUrl()}/agents/${agent.id}/rent`,
    );
    expect(await status(code)).toMatchObject({ rental: { status: "active" }, trial: { messages_left: 0 } });
    await updateAgent(owner.id, agent.id, { trialMessages: 5 });
    expect((await chat(code, "again")).status).toBe(402);
    expect(deliveredTo(agent.id)).toHaveLength(1);
  });

  it("a trial is refused by the decrement while the listing offers none, even if its row still had messages", async () => {
    const { agent, code } = await trialOf(4);
    // As if the owner's update and a message crossed: the listing has no offer, the row still 4.
    await db.agent.update({ where: { id: agent.id }, data: { trialMessages: null } });
    expect((await chat(code, "crossed")).status).toBe(402);
    expect((await db.rental.findFirstOrThrow({ where: { agentId: agent.id, trial: true } })).trialMessagesLeft).toBe(4);
  });
});
