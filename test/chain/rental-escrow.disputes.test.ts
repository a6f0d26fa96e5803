// RentalEscrow's disputes on a real EVM (anvil): opened once by the renter inside the window; ended
// by the owner accepting (full refund), by the arbiter (full refund, a partial refund split to the
// micro-USDC, or a rejection that lets the rental run on to be settled at its end, or releases it
// at once after the end), or by anyone after DISPUTE_TIMEOUT (full refund). Every path pays out
// price + fee exactly once.
import { beforeAll, describe, expect, it } from "vitest";
import { admin, arbiter, type Escrow, FEE, operator, other, owner, renter, Status, treasury } from "./escrow";
import { type Chain, escrowSuite, eventNames, events, expectRevert, expectSolvent, ROLE, SETTLE_GRACE, slaHash } from "./escrow-suite";

const Resolution = { Arbiter: 0, OwnerAccepted: 1, Expired: 2 } as const;
const TIMEOUT = 14n * 86_400n;

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});

/** A running rental the renter disputed, and everyone's balance before the outcome. */
async function disputed(overrides = {}) {
  const q = await e.quote(overrides);
  await e.create(q);
  const opened = await e.send(renter.address, "openDispute", [q.rentalId]);
  expect(events(opened, "DisputeOpened")).toEqual([{ id: q.rentalId }]);
  const balances = async () => ({
    renter: await e.balanceOf(renter.address),
    owner: await e.balanceOf(owner.address),
    treasury: await e.balanceOf(treasury.address),
  });
  const before = await balances();
  const paid = async () => {
    const after = await balances();
    return { renter: after.renter - before.renter, owner: after.owner - before.owner, treasury: after.treasury - before.treasury };
  };
  return { q, paid };
}

describe("opening", () => {
  it("freezes the funds: no release or settlement while disputed, even after the end and its grace", async () => {
    const { q } = await disputed();
    await chain.increaseTime(q.duration + SETTLE_GRACE);
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Disputed]);
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, 0n, slaHash()]), "InvalidStatus", [q.rentalId, Status.Disputed]);
    await e.send(other.address, "releaseMany", [[q.rentalId]]);
    await e.send(operator.address, "settleMany", [[{ id: q.rentalId, refund: 0n, slaHash: slaHash() }]]);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Disputed);
    expect(await e.read("disputedAt", [q.rentalId])).toBeGreaterThan(0n);
  });

  it("only by the renter, while the rental runs, and once", async () => {
    const q = await e.quote();
    await e.create(q);
    await expectRevert(e.send(other.address, "openDispute", [q.rentalId]), "SenderNotRenter");
    const { endsAt } = await e.rental(q.rentalId);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) });
    await expectRevert(e.send(renter.address, "openDispute", [q.rentalId]), "RentalEnded", [q.rentalId, BigInt(endsAt)]);

    const { q: again } = await disputed();
    await expectRevert(e.send(renter.address, "openDispute", [again.rentalId]), "InvalidStatus", [again.rentalId, Status.Disputed]);
    await e.send(arbiter.address, "resolveDispute", [again.rentalId, 0n]); // rejected: running again
    await expectRevert(e.send(renter.address, "openDispute", [again.rentalId]), "AlreadyDisputed", [again.rentalId]);
  });
});

describe("the owner accepts", () => {
  it("refunds price and fee to the renter, without the arbiter", async () => {
    const { q, paid } = await disputed();
    const receipt = await e.send(owner.address, "acceptDispute", [q.rentalId]);
    expect(events(receipt, "DisputeResolved")).toEqual([{ id: q.rentalId, refund: q.price, how: Resolution.OwnerAccepted }]);
    expect(await paid()).toEqual({ renter: q.price + FEE, owner: 0n, treasury: 0n });
    expect((await e.rental(q.rentalId)).status).toBe(Status.Refunded);
    await expectSolvent(e);
  });

  it("only the rental's owner, only while disputed", async () => {
    const q = await e.quote();
    await e.create(q);
    await expectRevert(e.send(owner.address, "acceptDispute", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Active]);
    await e.send(renter.address, "openDispute", [q.rentalId]);
    for (const account of [renter, other, arbiter])
      await expectRevert(e.send(account.address, "acceptDispute", [q.rentalId]), "SenderNotOwner");
  });
});

describe("the arbiter decides", () => {
  it("a full refund: price and fee back to the renter", async () => {
    const { q, paid } = await disputed();
    const receipt = await e.send(arbiter.address, "resolveDispute", [q.rentalId, q.price]);
    expect(events(receipt, "DisputeResolved")).toEqual([{ id: q.rentalId, refund: q.price, how: Resolution.Arbiter }]);
    expect(events(receipt, "RentalReleased")).toEqual([]);
    expect(await paid()).toEqual({ renter: q.price + FEE, owner: 0n, treasury: 0n });
    expect((await e.rental(q.rentalId)).status).toBe(Status.Refunded);
    await expectSolvent(e);
  });

  it("a partial refund, split to the micro-USDC: the renter its part, the owner the rest, the treasury the fee", async () => {
    const { q, paid } = await disputed({ price: 10_000_001n });
    const refund = 3_333_334n;
    const receipt = await e.send(arbiter.address, "resolveDispute", [q.rentalId, refund]);
    expect(events(receipt, "DisputeResolved")).toEqual([{ id: q.rentalId, refund, how: Resolution.Arbiter }]);
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: 6_666_667n, fee: FEE }]);
    expect(await paid()).toEqual({ renter: refund, owner: 6_666_667n, treasury: FEE });
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    await expectSolvent(e);
  });

  it("a rejection before the end: the rental runs on and is settled by availability at its end", async () => {
    const { q, paid } = await disputed();
    const receipt = await e.send(arbiter.address, "resolveDispute", [q.rentalId, 0n]);
    expect(events(receipt, "DisputeResolved")).toEqual([{ id: q.rentalId, refund: 0n, how: Resolution.Arbiter }]);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Active);
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "NotEnded");
    await chain.increaseTime(q.duration);
    await e.send(operator.address, "settleMany", [[{ id: q.rentalId, refund: 0n, slaHash: slaHash() }]]);
    expect(await paid()).toEqual({ renter: 0n, owner: q.price, treasury: FEE });
    await expectSolvent(e);
  });

  it("a rejection after the end: released at once, in full, with no settlement (the arbiter decided)", async () => {
    const { q, paid } = await disputed();
    await chain.increaseTime(q.duration);
    const receipt = await e.send(arbiter.address, "resolveDispute", [q.rentalId, 0n]);
    expect(eventNames(receipt)).toEqual(["DisputeResolved", "RentalReleased"]);
    expect(await paid()).toEqual({ renter: 0n, owner: q.price, treasury: FEE });
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
  });

  it("never more than the price, only the arbiter, only while disputed", async () => {
    const { q } = await disputed();
    await expectRevert(e.send(arbiter.address, "resolveDispute", [q.rentalId, q.price + 1n]), "RefundAbovePrice", [
      q.rentalId,
      q.price + 1n,
      q.price,
    ]);
    for (const account of [renter, owner, operator, admin]) {
      await expectRevert(e.send(account.address, "resolveDispute", [q.rentalId, 0n]), "AccessControlUnauthorizedAccount", [
        account.address,
        ROLE.arbiter,
      ]);
    }
    await e.send(arbiter.address, "resolveDispute", [q.rentalId, q.price]);
    await expectRevert(e.send(arbiter.address, "resolveDispute", [q.rentalId, 0n]), "InvalidStatus", [q.rentalId, Status.Refunded]);
  });
});

describe("nobody decides", () => {
  it("anyone settles it as a full refund once DISPUTE_TIMEOUT has passed, not before", async () => {
    const { q, paid } = await disputed();
    const settleableAt = ((await e.read("disputedAt", [q.rentalId])) as bigint) + TIMEOUT;
    await expectRevert(e.send(other.address, "settleExpiredDispute", [q.rentalId]), "DisputeNotExpired", [q.rentalId, settleableAt]);
    await chain.testClient.setNextBlockTimestamp({ timestamp: settleableAt });
    const receipt = await e.send(other.address, "settleExpiredDispute", [q.rentalId]);
    expect(events(receipt, "DisputeResolved")).toEqual([{ id: q.rentalId, refund: q.price, how: Resolution.Expired }]);
    expect(await paid()).toEqual({ renter: q.price + FEE, owner: 0n, treasury: 0n });
    await expectSolvent(e);
    expect(await e.read("DISPUTE_TIMEOUT")).toBe(TIMEOUT);
  });
});
