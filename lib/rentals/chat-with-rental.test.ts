import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/chat/route";
import { sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { makeAgent, makeRental, renterRequest } from "@/test/fixtures";

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
