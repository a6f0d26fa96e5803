import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/chat/route";
import { sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

describe("chatWithRental with credentials that no longer decrypt", () => {
  // Before, the decryption error escaped as a 500 "Internal error" for the renter.
  it("answers 503 in words (the owner must connect again) and records the call", async () => {
    const webhook = { url: "http://127.0.0.1:9/hooks/agent", token: "t".repeat(40) };
    const agent = await makeAgent({ webhook });
    const other = await makeAgent({ webhook });
    // Another row's ciphertexts: authenticated encryption refuses them (bound to their agent).
    await db.agent.update({ where: { id: agent.id }, data: sealWebhookCredentials(other.id, webhook) });
    const rental = await makeRental(agent.id);

    const res = await POST(renterRequest("chat", { code: rental.id.slice(0, 8), body: { message: "hello" } }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: "This agent's webhook must be connected again by its owner before it can be called; try again later.",
    });
    const calls = await db.chatCall.findMany({ where: { rentalId: rental.id } });
    expect(calls.map((c) => [c.statusCode, c.webhookStatus])).toEqual([[503, null]]);
  });
});

describe("chatWithRental when the call cannot be recorded", () => {
  it("still hands the renter the agent's answer: the record is statistics, the answer is what was paid for", async () => {
    let rentalId = "";
    // The rental's row is gone by the time the call is recorded: there is nothing to record it against.
    const hook = await startWebhook(async (_req, res) => {
      await db.rental.delete({ where: { id: rentalId } });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify("the answer"));
    });
    try {
      const agent = await makeAgent({ webhook: { url: hook.url, token: "t".repeat(40) } });
      rentalId = (await makeRental(agent.id)).id;
      const res = await POST(renterRequest("chat", { code: rentalId.slice(0, 8), body: { message: "hello" } }));
      expect(res.status).toBe(200);
      expect((await res.json()).response).toBe("the answer");
      expect(await db.chatCall.count({ where: { agentId: agent.id } })).toBe(0);
    } finally {
      await hook.close();
    }
  });
});
