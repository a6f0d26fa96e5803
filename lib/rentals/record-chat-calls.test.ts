import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type ChatCallRow, recordChatCall } from "@/lib/rentals/record-chat-calls";
import { makeAgent, makeRental } from "@/test/fixtures";

const call = (rentalId: string, agentId: string, statusCode: number): ChatCallRow => ({
  rentalId,
  messagePaymentId: null,
  agentId,
  statusCode,
  webhookStatus: statusCode === 200 ? 200 : null,
  latencyMs: 12,
  requestBytes: 5,
  responseBytes: statusCode === 200 ? 9 : 0,
  channel: "API",
  error: statusCode === 200 ? null : "The agent's webhook is unreachable; try again later.",
  createdAt: new Date("2026-11-25T10:00:00.000Z"),
});

describe("recordChatCall", () => {
  it("writes calls made together, each as given; one whose rental is gone is left out, not the others", async () => {
    const agent = await makeAgent();
    const kept = await makeRental(agent.id);
    const gone = await makeRental(agent.id);
    await db.rental.delete({ where: { id: gone.id } });

    await Promise.all([
      recordChatCall(call(kept.id, agent.id, 200)),
      recordChatCall(call(gone.id, agent.id, 200)),
      recordChatCall(call(kept.id, agent.id, 503)),
    ]);

    const rows = await db.chatCall.findMany({ where: { agentId: agent.id }, orderBy: { statusCode: "asc" } });
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([call(kept.id, agent.id, 200), call(kept.id, agent.id, 503)]);
  });

  it("rejects every call of a batch that could not be written", async () => {
    const agent = await makeAgent();
    const rental = await makeRental(agent.id);
    const results = await Promise.allSettled([
      recordChatCall(call(rental.id, agent.id, 200)),
      recordChatCall(call("not-a-uuid", agent.id, 200)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await db.chatCall.count({ where: { agentId: agent.id } })).toBe(0);
  });
});
