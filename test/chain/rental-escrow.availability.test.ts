// RentalEscrow's settlement by availability on a real EVM (anvil): after a rental's end the operator
// pays it out by the refund the service computed off chain from its down minutes (settle,
// settleMany), recording the down-minute list's hash; nobody else can release it before
// SETTLE_GRACE has passed since the end, and then only in full. Exact balances, the events' order
// and totalOwed on every path.
import { erc20Abi, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  arbiter,
  type Escrow,
  escrowAbi,
  escrowId,
  FEE,
  operator,
  other,
  owner,
  owner2,
  renter,
  renter2,
  Status,
  treasury,
} from "./escrow";
import {
  type Chain,
  endedRental as endedRentalOn,
  escrowSuite,
  eventNames,
  events,
  expectRevert,
  expectSolvent,
  ROLE,
  SETTLE_GRACE,
  slaHash,
} from "./escrow-suite";

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});
const endedRental = (overrides = {}) => endedRentalOn(chain, e, overrides);

/** The service's rule (docs/escrow.md, "Settlement by availability"), guarantee in percent:
 * allowance = floor(total × (100 − guarantee) / 100); refund = floor(price × max(0, down − allowance) / total). */
function availabilityRefund(price: bigint, minutesTotal: bigint, minutesDown: bigint, guarantee: bigint): bigint {
  const allowance = (minutesTotal * (100n - guarantee)) / 100n;
  const over = minutesDown > allowance ? minutesDown - allowance : 0n;
  return (price * over) / minutesTotal;
}

/** The start (unix seconds) of each of the rental's minutes from `first` to `last` inclusive. */
async function minuteStarts(id: Hex, first: number, last: number): Promise<bigint[]> {
  const { startsAt } = await e.rental(id);
  return Array.from({ length: last - first + 1 }, (_, i) => BigInt(startsAt + 60 * (first + i)));
}

/** Everyone's balance now, and what each received since. */
async function balances() {
  const read = async () => ({
    renter: await e.balanceOf(renter.address),
    renter2: await e.balanceOf(renter2.address),
    owner: await e.balanceOf(owner.address),
    owner2: await e.balanceOf(owner2.address),
    treasury: await e.balanceOf(treasury.address),
  });
  const before = await read();
  return async () => {
    const after = await read();
    return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]])) as typeof after;
  };
}

/** Token transfers the escrow made in the receipt: [to, amount], in order. */
function payouts(x: Escrow, receipt: TransactionReceipt): [Hex, bigint][] {
  return parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" })
    .filter((log) => log.address.toLowerCase() === x.token.toLowerCase() && log.args.from === x.escrow)
    .map((log) => [log.args.to, log.args.value]);
}

describe("settle", () => {
  it("a 60-minute rental with 15 minutes down and a 99 % guarantee: the renter gets floor(P × 15 / 60) back", async () => {
    const price = 25_000_001n;
    const q = await e.quote({ price, duration: 3_600n });
    await e.create(q); // mints exactly price + fee to the renter, who pays it all in
    const down = await minuteStarts(q.rentalId, 20, 34); // 15 minutes
    expect(down).toHaveLength(15);
    expect((60n * (100n - 99n)) / 100n).toBe(0n); // the allowance: no minute is the owner's to spend
    const refund = availabilityRefund(price, 60n, 15n, 99n);
    expect(refund).toBe((price * 15n) / 60n);
    expect(refund).toBe(6_250_000n); // floor(6,250,000.25)
    await chain.increaseTime(q.duration);

    const paid = await balances();
    const receipt = await e.send(operator.address, "settle", [q.rentalId, refund, slaHash(down)]);
    expect(await paid()).toEqual({ renter: refund, renter2: 0n, owner: price - refund, owner2: 0n, treasury: FEE });
    expect(await e.balanceOf(renter.address)).toBe(refund);
    expect(await e.balanceOf(owner.address)).toBe(18_750_001n);
    expect(await e.balanceOf(treasury.address)).toBe(FEE);
    // RentalSettled first, then RentalReleased with the owner's part, in the same transaction.
    expect(eventNames(receipt)).toEqual(["RentalSettled", "RentalReleased"]);
    expect(events(receipt, "RentalSettled")).toEqual([{ id: q.rentalId, refund, slaHash: slaHash(down) }]);
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: price - refund, fee: FEE }]);
    expect(payouts(e, receipt)).toEqual([
      [renter.address, refund],
      [owner.address, price - refund],
      [treasury.address, FEE],
    ]);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    expect(await e.totalOwed()).toBe(0n);
    await expectSolvent(e);
  });

  it("no minute down: released in full, the renter gets nothing back", async () => {
    const q = await endedRental({ price: 9_999_999n });
    expect(availabilityRefund(q.price, 60n, 0n, 99n)).toBe(0n);
    const paid = await balances();
    const receipt = await e.send(operator.address, "settle", [q.rentalId, 0n, slaHash()]);
    expect(await paid()).toEqual({ renter: 0n, renter2: 0n, owner: q.price, owner2: 0n, treasury: FEE });
    expect(events(receipt, "RentalSettled")).toEqual([{ id: q.rentalId, refund: 0n, slaHash: slaHash() }]);
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: q.price, fee: FEE }]);
    expect(payouts(e, receipt)).toEqual([
      [owner.address, q.price],
      [treasury.address, FEE],
    ]);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("down minutes within the allowance refund nothing; down all the time, the whole price (the fee stays the treasury's)", async () => {
    expect(availabilityRefund(25_000_000n, 1_440n, 14n, 99n)).toBe(0n); // a day: 14 minutes allowed
    expect(availabilityRefund(25_000_000n, 1_440n, 15n, 99n)).toBe(17_361n);
    const q = await endedRental();
    const refund = availabilityRefund(q.price, 60n, 60n, 99n);
    expect(refund).toBe(q.price);
    const paid = await balances();
    const receipt = await e.send(operator.address, "settle", [q.rentalId, refund, slaHash(await minuteStarts(q.rentalId, 0, 59))]);
    expect(await paid()).toEqual({ renter: q.price, renter2: 0n, owner: 0n, owner2: 0n, treasury: FEE });
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: 0n, fee: FEE }]);
    expect(payouts(e, receipt)).toEqual([
      [renter.address, q.price],
      [treasury.address, FEE],
    ]);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    await expectSolvent(e);
  });

  it("refuses a refund above the price", async () => {
    const q = await endedRental();
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, q.price + 1n, slaHash()]), "RefundAbovePrice", [
      q.rentalId,
      q.price + 1n,
      q.price,
    ]);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Active);
  });

  it("is for the operator only", async () => {
    const q = await endedRental();
    for (const account of [renter, owner, arbiter, admin, other]) {
      await expectRevert(e.send(account.address, "settle", [q.rentalId, 0n, slaHash()]), "AccessControlUnauthorizedAccount", [
        account.address,
        ROLE.operator,
      ]);
      await expectRevert(
        e.send(account.address, "settleMany", [[{ id: q.rentalId, refund: 0n, slaHash: slaHash() }]]),
        "AccessControlUnauthorizedAccount",
        [account.address, ROLE.operator],
      );
    }
    expect((await e.rental(q.rentalId)).status).toBe(Status.Active);
  });

  it("only an ended Active rental, once", async () => {
    const q = await e.quote();
    await e.create(q);
    const { endsAt } = await e.rental(q.rentalId);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) - 1n });
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, 0n, slaHash()]), "NotEnded", [q.rentalId, BigInt(endsAt)]);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) });
    await e.send(operator.address, "settle", [q.rentalId, 0n, slaHash()]);
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, 0n, slaHash()]), "InvalidStatus", [q.rentalId, Status.Released]);
    const unknown = escrowId("never settled");
    await expectRevert(e.send(operator.address, "settle", [unknown, 0n, slaHash()]), "InvalidStatus", [unknown, Status.None]);

    const disputed = await e.quote();
    await e.create(disputed);
    await e.send(renter.address, "openDispute", [disputed.rentalId]);
    await chain.increaseTime(disputed.duration);
    await expectRevert(e.send(operator.address, "settle", [disputed.rentalId, 0n, slaHash()]), "InvalidStatus", [
      disputed.rentalId,
      Status.Disputed,
    ]);
    const cancelled = await endedRental();
    await e.send(operator.address, "cancel", [cancelled.rentalId]);
    await expectRevert(e.send(operator.address, "settle", [cancelled.rentalId, 0n, slaHash()]), "InvalidStatus", [
      cancelled.rentalId,
      Status.Refunded,
    ]);
    await expectSolvent(e);
  });
});

describe("release before the settlement", () => {
  it("a stranger cannot release before SETTLE_GRACE has passed since the end; after it, in full", async () => {
    const q = await endedRental();
    const { endsAt } = await e.rental(q.rentalId);
    const releasableAt = BigInt(endsAt) + SETTLE_GRACE;
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "SettlementPending", [q.rentalId, releasableAt]);
    await e.send(other.address, "releaseMany", [[q.rentalId]]); // skipped
    expect((await e.rental(q.rentalId)).status).toBe(Status.Active);

    await chain.testClient.setNextBlockTimestamp({ timestamp: releasableAt });
    const paid = await balances();
    const receipt = await e.send(other.address, "release", [q.rentalId]);
    expect(await paid()).toEqual({ renter: 0n, renter2: 0n, owner: q.price, owner2: 0n, treasury: FEE });
    expect(eventNames(receipt)).toEqual(["RentalReleased"]);
    expect(await e.totalOwed()).toBe(0n);
  });
});

describe("settleMany", () => {
  it("settles every settleable rental and skips the rest, the fees in one transfer", async () => {
    const plain = await e.quote();
    const partly = await e.quote({ renter: renter2.address, owner: owner2.address, price: 12_000_000n });
    const tooMuch = await e.quote();
    const running = await e.quote({ duration: 3n * 86_400n }); // still running after the others' grace
    const disputed = await e.quote({ duration: 86_400n });
    const released = await e.quote();
    for (const q of [plain, partly, tooMuch, running, disputed, released]) await e.create(q);
    await e.send(renter.address, "openDispute", [disputed.rentalId]);
    await chain.increaseTime(3_600n + SETTLE_GRACE);
    await e.send(other.address, "release", [released.rentalId]);
    const owedBefore = await e.totalOwed();

    const partlyDown = await minuteStarts(partly.rentalId, 0, 29);
    const partRefund = availabilityRefund(partly.price, 60n, 30n, 99n); // half the time down
    expect(partRefund).toBe(6_000_000n);
    const settlement = (q: { rentalId: Hex }, refund: bigint, hash = slaHash()) => ({ id: q.rentalId, refund, slaHash: hash });
    const batch = [
      settlement({ rentalId: escrowId("unknown to the escrow") }, 0n),
      settlement(plain, 0n),
      settlement(running, 0n),
      settlement(tooMuch, tooMuch.price + 1n),
      settlement(partly, partRefund, slaHash(partlyDown)),
      settlement(disputed, 0n),
      settlement(released, 0n),
      settlement(plain, 5n), // a duplicate: already settled in this batch
    ];
    const { result } = await chain.publicClient.simulateContract({
      account: operator.address,
      address: e.escrow,
      abi: escrowAbi,
      functionName: "settleMany",
      args: [batch],
    });
    expect(result).toBe(2n);

    const paid = await balances();
    const receipt = await e.send(operator.address, "settleMany", [batch]);
    expect(eventNames(receipt)).toEqual(["RentalSettled", "RentalReleased", "RentalSettled", "RentalReleased"]);
    expect(events(receipt, "RentalSettled")).toEqual([
      { id: plain.rentalId, refund: 0n, slaHash: slaHash() },
      { id: partly.rentalId, refund: partRefund, slaHash: slaHash(partlyDown) },
    ]);
    expect(events(receipt, "RentalReleased")).toEqual([
      { id: plain.rentalId, owner: owner.address, price: plain.price, fee: FEE },
      { id: partly.rentalId, owner: owner2.address, price: partly.price - partRefund, fee: FEE },
    ]);
    expect(await paid()).toEqual({
      renter: 0n,
      renter2: partRefund,
      owner: plain.price,
      owner2: partly.price - partRefund,
      treasury: 2n * FEE,
    });
    expect(payouts(e, receipt)).toEqual([
      [owner.address, plain.price],
      [renter2.address, partRefund],
      [owner2.address, partly.price - partRefund],
      [treasury.address, 2n * FEE],
    ]);
    for (const q of [plain, partly, released]) expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    for (const q of [tooMuch, running]) expect((await e.rental(q.rentalId)).status).toBe(Status.Active);
    expect((await e.rental(disputed.rentalId)).status).toBe(Status.Disputed);
    expect(await e.totalOwed()).toBe(owedBefore - plain.price - partly.price - 2n * FEE);
    expect(await e.totalOwed()).toBe(3n * (25_000_000n + FEE)); // tooMuch, running, disputed
    await expectSolvent(e);

    // The one refused for its refund is settled by the next sweep with a correct one.
    await e.send(operator.address, "settleMany", [[settlement(tooMuch, tooMuch.price)]]);
    expect((await e.rental(tooMuch.rentalId)).status).toBe(Status.Released);
    await expectSolvent(e);
  });

  it("accepts an empty batch or one that settles nothing: no events, no transfers", async () => {
    expect((await e.send(operator.address, "settleMany", [[]])).logs).toHaveLength(0);
    const running = await e.quote();
    await e.create(running);
    const receipt = await e.send(operator.address, "settleMany", [[{ id: running.rentalId, refund: 0n, slaHash: slaHash() }]]);
    expect(receipt.logs).toHaveLength(0);
  });
});
