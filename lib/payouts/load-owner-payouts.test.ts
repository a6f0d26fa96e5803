import { randomBytes } from "node:crypto";
import { encodeAbiParameters, keccak256, toHex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { loadOwnerPayouts } from "@/lib/payouts/load-owner-payouts";
import { newAddress, type Payments, startPayments } from "@/test/chain/payments-harness";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";

// RentalEscrow keeps `credits` (address → amount) in storage slot 7; writing it directly gives an
// owner credit without staging a refused transfer.
const CREDITS_SLOT = 7n;
const creditSlot = (address: `0x${string}`) =>
  keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [address, CREDITS_SLOT]));

let payments: Payments | undefined;
afterAll(async () => {
  await payments?.stop();
});

async function ownerWithMoney(walletAddress: string | null) {
  const owner = await makeOwner();
  if (walletAddress) await db.account.update({ where: { id: owner.id }, data: { walletAddress: walletAddress.toLowerCase() } });
  const agent = await makeOwnerAgent(owner.id); // 2 / 10 / 100 USDC
  await makeRental(agent.id, { durationType: "day", status: "completed", startsInSeconds: -2 * 86_400 });
  await makeRental(agent.id, { durationType: "hour", status: "completed", startsInSeconds: -2 * 86_400 });
  await makeRental(agent.id, { durationType: "month", status: "active" });
  await makeRental(agent.id, { durationType: "hour", status: "disputed" });
  await makeRental(agent.id, { durationType: "day", status: "cancelled" });
  await makeRental(agent.id, { durationType: "day", status: "pending" });
  return { ...owner, walletAddress: walletAddress?.toLowerCase() ?? null };
}

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;

// Answers sold per message at 0.02 USDC each, credited (once settled) to `payoutAddress`.
async function messagePayments(agentId: string, payoutAddress: string, statuses: string[]) {
  await db.messagePayment.createMany({
    data: statuses.map((status) => ({
      agentId,
      payer: hex(20),
      nonce: hex(32),
      payoutAddress: payoutAddress.toLowerCase(),
      priceMicro: 20_000n,
      feeMicro: 1_000n,
      validAfter: 0n,
      validBefore: 2_000_000_000n,
      signature: hex(65),
      status,
      settledAt: status === "settled" ? new Date() : null,
      txHash: status === "settled" ? hex(32) : null,
    })),
  });
}

describe("loadOwnerPayouts", () => {
  it("released = completed rentals' prices; in escrow = active and disputed; no wallet → nothing to read", async () => {
    const owner = await ownerWithMoney(null);
    expect(await loadOwnerPayouts(owner)).toEqual({
      releasedMicro: 12_000_000n,
      inEscrowMicro: 102_000_000n,
      messageEarnedMicro: 0n,
      credit: { kind: "no-wallet" },
    });
  });

  it("adds the settled answers sold per message, apart from the rentals", async () => {
    const owner = await ownerWithMoney(null);
    const agent = await makeOwnerAgent(owner.id, { listing: { pricePerMessage: 0.02 } });
    await messagePayments(agent.id, newAddress(), ["settled", "settled", "settling", "unpaid", "failed"]);
    expect(await loadOwnerPayouts(owner)).toMatchObject({
      releasedMicro: 12_000_000n,
      inEscrowMicro: 102_000_000n,
      messageEarnedMicro: 40_000n,
    });
  });

  it("says payments are not configured when the chain settings are missing", async () => {
    if (env.ESCROW_ADDRESS) return; // this machine's environment configures a chain
    const owner = await ownerWithMoney(newAddress());
    const { credit } = await loadOwnerPayouts(owner);
    expect(credit).toMatchObject({
      kind: "not-configured",
      message: expect.stringMatching(/Payments are not configured/),
    });
  });

  it("reads credits(wallet) from the escrow, for the wallet and every payout address of the owner's rentals and answers sold", {
    timeout: 60_000,
  }, async () => {
    payments = await startPayments();
    const wallet = newAddress();
    const oldPayout = newAddress();
    const owner = await ownerWithMoney(wallet);
    const rental = await db.rental.findFirstOrThrow({ where: { agent: { ownerId: owner.id } } });
    await db.rental.update({ where: { id: rental.id }, data: { payoutAddress: oldPayout.toLowerCase() } });
    await payments.testClient.setStorageAt({
      address: payments.e.escrow,
      index: creditSlot(oldPayout),
      value: toHex(7_250_000n, { size: 32 }),
    });

    // Answers sold per message to a wallet the owner had then: their prices are credited there.
    const answersPayout = newAddress();
    const answering = await makeOwnerAgent(owner.id, { listing: { pricePerMessage: 0.02 } });
    await messagePayments(answering.id, answersPayout, ["settled", "settled", "unpaid"]);
    await payments.testClient.setStorageAt({
      address: payments.e.escrow,
      index: creditSlot(answersPayout),
      value: toHex(40_000n, { size: 32 }),
    });

    const { credit, messageEarnedMicro } = await loadOwnerPayouts(owner);
    expect(messageEarnedMicro).toBe(40_000n);
    expect(credit).toMatchObject({ kind: "ok", totalMicro: 7_290_000n, escrow: payments.e.escrow });
    if (credit.kind !== "ok") return;
    expect(new Map(credit.lines.map((l) => [l.address, l.micro]))).toEqual(
      new Map([
        [wallet, 0n],
        [oldPayout, 7_250_000n],
        [answersPayout, 40_000n],
      ]),
    );
  });
});
