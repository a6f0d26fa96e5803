// The release sweep and the ended rentals the escrow will not release (issue 9): `settleMany`
// skips ids that are not Active on chain — paid on another escrow address, undone by a reorg,
// released, refunded or disputed without the event reader having told the database yet. Those must
// never take a batch's place from a releasable rental, and must not be sent again every minute.
//
// This file has a database of its own: the sweep works through every ended rental of its
// database, and the settlement tests run theirs at the same time against another chain, on which
// these rentals are unknown (each sweep would back off the other's rentals).
import { randomBytes, randomUUID } from "node:crypto";
import { decodeFunctionData, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GIVE_UP_AFTER } from "@/lib/chain/find-releasable-rentals";
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";
import { db } from "@/lib/db";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { isolateDatabase } from "@/test/private-database";
import { Status } from "./escrow";
import {
  chainDate,
  escrowAbi,
  FEE,
  makePayableAgent,
  newRenter,
  operator,
  other,
  type Payments,
  pay,
  send,
  startPayments,
  USDC,
} from "./payments-harness";

const HOUR = 3_600;
const MINUTE_MS = 60_000;
const GRACE = 24 * HOUR; // RentalEscrow.SETTLE_GRACE
const PRICE = 2n * USDC; // makePayableAgent's hourly price

isolateDatabase("release_sweep_skips");

let p: Payments;

beforeAll(async () => {
  p = await startPayments();
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => p?.stop());

/** A rental of a fresh agent by a fresh renter, quoted at the chain's time, paid and confirmed. */
async function paidRental() {
  const renter = await newRenter(p);
  const { agent, payout } = await makePayableAgent();
  const quoted = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, await chainDate(p));
  const receipt = await pay(p, renter, quoted);
  expect((await confirmRentalPayment(receipt.transactionHash, { claimSecret: quoted.claimSecret })).status).toBe("active");
  return { id: quoted.rentalId, chainId: quoted.quote.rentalId, renter, payout };
}

/**
 * `count` rentals that are active and paid as far as the database knows, ended at `endsAt`,
 * under escrow ids this escrow has never seen (as after a change of ESCROW_ADDRESS).
 */
async function unknownToEscrow(count: number, endsAt: Date): Promise<string[]> {
  const { agent, payout } = await makePayableAgent();
  const rows = Array.from({ length: count }, () => ({
    id: randomUUID(),
    ...newRentalKeys(),
    agentId: agent.id,
    status: "active" as const,
    durationType: "hour" as const,
    channel: "API" as const,
    startsAt: new Date(endsAt.getTime() - HOUR * 1000),
    endsAt,
    priceMicro: PRICE,
    feeMicro: FEE,
    renterAddress: `0x${randomBytes(20).toString("hex")}`,
    payoutAddress: payout.toLowerCase(),
    createTxHash: `0x${randomBytes(32).toString("hex")}`,
  }));
  await db.rental.createMany({ data: rows });
  return rows.map((r) => r.id);
}

const rental = (id: string) => db.rental.findUniqueOrThrow({ where: { id } });
const rentals = (ids: string[]) => db.rental.findMany({ where: { id: { in: ids } } });
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

/** The escrow ids each of the operator's release transactions asked `settleMany` to settle. */
async function idsSentForRelease(): Promise<Hex[][]> {
  const rows = await db.chainTransaction.findMany({ where: { kind: "release" }, orderBy: { nonce: "asc" } });
  return Promise.all(
    rows.map(async (row) => {
      const tx = await p.publicClient.getTransaction({ hash: row.hash as Hex });
      const { args } = decodeFunctionData({ abi: escrowAbi, data: tx.input });
      return (args![0] as readonly { id: Hex }[]).map((settlement) => settlement.id);
    }),
  );
}

describe("release sweep: rentals the escrow will not release", () => {
  it("50 rentals unknown to the escrow do not hold up a releasable one, released in the same run; the others are reconciled with the chain or backed off, never sent", async () => {
    // Told nothing by the event reader (it lags): released by someone else, refunded, disputed.
    const releasedElsewhere = await paidRental();
    const cancelled = await paidRental();
    await p.e.send(operator.address, "cancel", [cancelled.chainId]);
    const disputed = await paidRental();
    await send(p, disputed.renter, p.e.escrow, escrowAbi, "openDispute", [disputed.chainId]);
    // The releasable one ends last, so every other ended rental comes before it in end order.
    const real = await paidRental();
    const unknown = await unknownToEscrow(50, later(await chainDate(p), -HOUR * 1000));
    // Past the settlement grace: anyone may release it in full.
    await p.increaseTime(HOUR + GRACE);
    await p.e.send(other.address, "release", [releasedElsewhere.chainId]);
    for (const r of [releasedElsewhere, cancelled, disputed, real]) expect((await rental(r.id)).status).toBe("active");

    const nonce = await operatorNonce();
    const now = await chainDate(p);
    const summary = await releaseEndedRentals({ now });

    expect(summary).toMatchObject({
      claimed: 1,
      sent: 1,
      completed: 1,
      failed: 0,
      reconciled: 3,
      backedOff: 50,
      gaveUp: 0,
      skipped: false,
    });
    expect((await rental(real.id)).status).toBe("completed");
    expect((await p.e.rental(real.chainId)).status).toBe(Status.Released);
    expect(await p.e.balanceOf(real.payout)).toBe(PRICE);
    expect(await operatorNonce()).toBe(nonce + 1);
    expect(await idsSentForRelease()).toEqual([[real.chainId]]); // none of the others was ever sent

    // Settled from the escrow's own record.
    expect((await rental(releasedElsewhere.id)).status).toBe("completed");
    expect((await rental(cancelled.id)).status).toBe("cancelled");
    expect((await rental(disputed.id)).status).toBe("disputed");

    // Unknown to the escrow: tried again in a minute.
    for (const row of await rentals(unknown)) {
      expect(row).toMatchObject({
        status: "active",
        releaseTxId: null,
        releaseSkips: 1,
        releaseRetryAt: later(now, MINUTE_MS),
      });
    }

    // Before their time nothing is looked at or sent.
    expect(await releaseEndedRentals({ now: later(now, 59_000) })).toMatchObject({
      claimed: 0,
      sent: 0,
      reconciled: 0,
      backedOff: 0,
      gaveUp: 0,
    });
    expect((await rentals(unknown)).map((r) => r.releaseSkips)).toEqual(unknown.map(() => 1));

    // Each try doubles the delay (1, 2, 4 … minutes); the 10th gives up, and then they stay alone.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let at = later(now, MINUTE_MS);
    for (let skips = 2; skips <= GIVE_UP_AFTER; skips++) {
      const run = await releaseEndedRentals({ now: at });
      const givenUp = skips === GIVE_UP_AFTER;
      expect(run).toMatchObject({ claimed: 0, sent: 0, backedOff: givenUp ? 0 : 50, gaveUp: givenUp ? 50 : 0 });
      const next = givenUp ? null : later(at, MINUTE_MS * 2 ** (skips - 1));
      for (const row of await rentals(unknown)) expect(row).toMatchObject({ status: "active", releaseSkips: skips, releaseRetryAt: next });
      if (next) at = next;
    }
    expect(at.getTime() - now.getTime()).toBe(511 * MINUTE_MS); // 1 + 2 + … + 256 minutes
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(
      /^\[release\] gave up on 50 rental\(s\) the escrow did not release in 10 sweeps \(escrow ids 0x[0-9a-f]{64}, .* and 45 more\)/,
    );
    expect(await releaseEndedRentals({ now: later(at, 30 * 24 * HOUR * 1000) })).toMatchObject({
      sent: 0,
      backedOff: 0,
      gaveUp: 0,
    });
    expect((await rentals(unknown)).map((r) => r.releaseSkips)).toEqual(unknown.map(() => GIVE_UP_AFTER));
    expect(await operatorNonce()).toBe(nonce + 1);
    expect(await idsSentForRelease()).toEqual([[real.chainId]]);
  });

  it("a rental released by someone else while the sweep's transaction waited is backed off, not sent again, then completed from the escrow's record", async () => {
    const r = await paidRental();
    // Past the settlement grace, so a stranger may release it in full.
    await p.increaseTime(HOUR + GRACE);
    const sentBefore = (await idsSentForRelease()).length;

    await p.testClient.setAutomine(false);
    try {
      expect(await releaseEndedRentals({ now: await chainDate(p), waitMs: 300 })).toMatchObject({
        sent: 1,
        completed: 0,
      });
      // Anyone may release a rental the operator left unsettled past the grace; this one outbids the
      // sweep's transaction in the block.
      await p.walletClient.writeContract({
        account: other.address,
        address: p.e.escrow,
        abi: escrowAbi,
        functionName: "release",
        args: [r.chainId],
        gas: 200_000n,
        maxFeePerGas: 10n ** 12n,
        maxPriorityFeePerGas: 10n ** 11n,
      });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      await p.testClient.setAutomine(true);
    }
    const ours = await db.chainTransaction.findFirstOrThrow({ where: { kind: "release" }, orderBy: { nonce: "desc" } });
    const receipt = await p.publicClient.getTransactionReceipt({ hash: ours.hash as Hex });
    expect([receipt.status, receipt.logs.length]).toEqual(["success", 0]); // settleMany skipped it

    const nonce = await operatorNonce();
    const now = await chainDate(p);
    expect(await releaseEndedRentals({ now })).toMatchObject({ sent: 0, completed: 0, backedOff: 1, reconciled: 0 });
    expect(await rental(r.id)).toMatchObject({
      status: "active",
      releaseTxId: null,
      releaseSkips: 1,
      releaseRetryAt: later(now, MINUTE_MS),
    });

    expect(await releaseEndedRentals({ now: later(now, MINUTE_MS) })).toMatchObject({
      sent: 0,
      reconciled: 1,
      backedOff: 0,
    });
    expect((await rental(r.id)).status).toBe("completed");
    expect(await operatorNonce()).toBe(nonce);
    expect((await idsSentForRelease()).length).toBe(sentBefore + 1);
    expect(await p.e.balanceOf(r.payout)).toBe(PRICE);
  });
});
