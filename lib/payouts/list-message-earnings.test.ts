// The owner's answers sold per message, by UTC day of settlement: only settled answers of the
// owner's own listings count, each day with its answers, earnings and settlement transactions.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeOwner, makeOwnerAgent } from "@/test/fixtures";
import { listMessageEarnings, MESSAGE_EARNINGS_DAYS, MESSAGE_EARNINGS_TX_PER_DAY } from "./list-message-earnings";

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;
const PAYOUT = hex(20);

type Payment = { status: string; price: bigint; settledAt?: string; txHash?: string };

async function payments(agentId: string, list: Payment[]) {
  await db.messagePayment.createMany({
    data: list.map((p) => ({
      agentId,
      payer: hex(20),
      nonce: hex(32),
      payoutAddress: PAYOUT,
      priceMicro: p.price,
      feeMicro: 1_000n,
      validAfter: 0n,
      validBefore: 2_000_000_000n,
      signature: hex(65),
      status: p.status,
      txHash: p.txHash ?? null,
      settledAt: p.settledAt ? new Date(p.settledAt) : null,
    })),
  });
}

describe("listMessageEarnings", () => {
  it("groups settled answers by UTC day, newest first, with answers, earnings and distinct transactions", async () => {
    const owner = await makeOwner();
    const first = await makeOwnerAgent(owner.id, { listing: { name: "Answers A", pricePerMessage: 0.01 } });
    const second = await makeOwnerAgent(owner.id, { listing: { name: "Answers B", pricePerMessage: 0.25 } });
    const [batch, single, late] = [hex(32), hex(32), hex(32)];
    await payments(first.id, [
      // 2026-11-20 (UTC): two answers in one transaction and one in another, across both listings.
      { status: "settled", price: 10_000n, settledAt: "2026-11-20T00:00:00Z", txHash: batch },
      { status: "settled", price: 10_000n, settledAt: "2026-11-20T09:30:00Z", txHash: batch },
      // 23:59:59.999 UTC is still the 20th, whatever the server's time zone.
      { status: "settled", price: 10_000n, settledAt: "2026-11-20T23:59:59.999Z", txHash: single },
      // Not earned: never answered, being settled, refused by the chain, still answering.
      { status: "unpaid", price: 10_000n },
      { status: "settling", price: 10_000n, txHash: hex(32) },
      { status: "failed", price: 10_000n, txHash: hex(32) },
      { status: "answering", price: 10_000n },
    ]);
    await payments(second.id, [
      { status: "settled", price: 250_000n, settledAt: "2026-11-20T12:00:00Z", txHash: single },
      { status: "settled", price: 250_000n, settledAt: "2026-11-22T00:00:00.001Z", txHash: late },
    ]);
    // Another owner's answers never show.
    const stranger = await makeOwnerAgent((await makeOwner()).id, { listing: { pricePerMessage: 1 } });
    await payments(stranger.id, [{ status: "settled", price: 1_000_000n, settledAt: "2026-11-20T10:00:00Z", txHash: hex(32) }]);

    const { days, more } = await listMessageEarnings(owner.id);
    expect(more).toBe(false);
    expect(days.map((d) => ({ ...d, txHashes: [...d.txHashes].sort() }))).toEqual([
      { day: new Date("2026-11-22T00:00:00Z"), answers: 1, earnedMicro: 250_000n, txHashes: [late], txCount: 1 },
      { day: new Date("2026-11-20T00:00:00Z"), answers: 4, earnedMicro: 280_000n, txHashes: [batch, single].sort(), txCount: 2 },
    ]);
  });

  it("is empty for an owner who sold no answer", async () => {
    const owner = await makeOwner();
    await makeOwnerAgent(owner.id);
    expect(await listMessageEarnings(owner.id)).toEqual({ days: [], more: false });
  });

  it(`shows the newest ${MESSAGE_EARNINGS_DAYS} days and at most ${MESSAGE_EARNINGS_TX_PER_DAY} transactions a day, counting the rest`, async () => {
    const owner = await makeOwner();
    const agent = await makeOwnerAgent(owner.id, { listing: { pricePerMessage: 0.001 } });
    const day0 = Date.parse("2026-01-01T12:00:00Z");
    await payments(
      agent.id,
      Array.from({ length: MESSAGE_EARNINGS_DAYS + 1 }, (_, i) => ({
        status: "settled",
        price: 1_000n,
        settledAt: new Date(day0 + i * 86_400_000).toISOString(),
        txHash: hex(32),
      })),
    );
    const busy = new Date(day0 + MESSAGE_EARNINGS_DAYS * 86_400_000).toISOString();
    await payments(
      agent.id,
      Array.from({ length: MESSAGE_EARNINGS_TX_PER_DAY + 4 }, () => ({
        status: "settled",
        price: 1_000n,
        settledAt: busy,
        txHash: hex(32),
      })),
    );
    const { days, more } = await listMessageEarnings(owner.id);
    expect(more).toBe(true);
    expect(days).toHaveLength(MESSAGE_EARNINGS_DAYS);
    expect(days[0]).toMatchObject({ answers: MESSAGE_EARNINGS_TX_PER_DAY + 5, txCount: MESSAGE_EARNINGS_TX_PER_DAY + 5 });
    expect(days[0].txHashes).toHaveLength(MESSAGE_EARNINGS_TX_PER_DAY);
    expect(days.at(-1)!.day).toEqual(new Date("2026-01-02T00:00:00Z")); // the oldest day is the one left out
  });
});
