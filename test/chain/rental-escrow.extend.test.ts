// RentalEscrow's extension of a running rental (issue 29): one transaction (permit + extend), exact
// money movements, the refusals, and settlement, disputes and refunds of the extended rental as one
// rental over its whole length.
import { beforeAll, describe, expect, it } from "vitest";
import { admin, arbiter, type Escrow, FEE, operator, other, owner, renter, renter2, Status, treasury } from "./escrow";
import { type Chain, escrowSuite, events, expectRevert, expectSolvent, slaHash } from "./escrow-suite";

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});

/** An hour rental of 25 USDC + 1 USDC fee, created now. */
async function hourRental() {
  const q = await e.quote();
  await e.create(q);
  return q;
}

/** Extends with permit in one transaction from the renter (mints the added price + fee first). */
async function extendWithPermit(x: Awaited<ReturnType<Escrow["extension"]>>, signature?: `0x${string}`) {
  await e.sendToken(admin.address, "mint", [x.renter, x.addedPrice + x.fee]);
  const deadline = (await chain.now()) + 600n;
  const { v, r, s } = await e.signPermit({ renter: x.renter, price: x.addedPrice, fee: x.fee }, deadline);
  return e.send(x.renter, "extendRentalWithPermit", [x, signature ?? (await e.signExtension(x)), deadline, v, r, s]);
}

describe("extendRentalWithPermit", () => {
  it("moves the end by addedSeconds and adds the price and the fee, in one transaction", async () => {
    const q = await hourRental();
    const before = await e.rental(q.rentalId);
    await chain.increaseTime(1_800);
    const x = await e.extension(q.rentalId);
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: renter.address });
    const receipt = await extendWithPermit(x);
    expect(await chain.publicClient.getTransactionCount({ address: renter.address })).toBe(nonceBefore + 1);
    expect(events(receipt, "RentalExtended")).toEqual([
      {
        id: q.rentalId,
        addedPrice: 25_000_000n,
        addedFee: FEE,
        previousEndsAt: BigInt(before.endsAt),
        endsAt: BigInt(before.endsAt) + 3_600n,
      },
    ]);
    const after = await e.rental(q.rentalId);
    expect(after).toEqual({ ...before, endsAt: before.endsAt + 3_600, price: 50_000_000n, fee: 2n * FEE });
    expect(await e.balanceOf(renter.address)).toBe(0n);
    expect(await e.balanceOf(e.escrow)).toBe(52_000_000n);
    expect(await e.totalOwed()).toBe(52_000_000n);
    await expectSolvent(e);
  });

  it("extends twice, each signed from the end before it", async () => {
    const q = await hourRental();
    const { endsAt } = await e.rental(q.rentalId);
    await extendWithPermit(await e.extension(q.rentalId));
    await extendWithPermit(await e.extension(q.rentalId, { addedSeconds: 86_400n, addedPrice: 400_000_000n }));
    const after = await e.rental(q.rentalId);
    expect(after.endsAt).toBe(endsAt + 3_600 + 86_400);
    expect(after.price).toBe(25_000_000n + 25_000_000n + 400_000_000n);
    expect(after.fee).toBe(3n * FEE);
    await expectSolvent(e);
  });
});

describe("extendRental refusals", () => {
  it("redeems a signed extension once (StaleExtension after the end moved)", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId);
    const signature = await e.signExtension(x);
    await extendWithPermit(x, signature);
    await e.sendToken(admin.address, "mint", [renter.address, x.addedPrice + x.fee]);
    await e.sendToken(renter.address, "approve", [e.escrow, x.addedPrice + x.fee]);
    await expectRevert(e.send(renter.address, "extendRental", [x, signature]), "StaleExtension", [q.rentalId, x.endsAt + 3_600n]);
  });

  it("only the renter, only a quote signer, only before the deadline", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId);
    await expectRevert(e.send(other.address, "extendRental", [x, await e.signExtension(x)]), "SenderNotRenter");
    const forOther = await e.extension(q.rentalId, { renter: renter2.address });
    await expectRevert(e.send(renter2.address, "extendRental", [forOther, await e.signExtension(forOther)]), "SenderNotRenter");
    await expectRevert(e.send(renter.address, "extendRental", [x, await e.signExtension(x, owner)]), "UnauthorizedSigner", [owner.address]);
    const tampered = { ...x, addedPrice: 1n };
    await expectRevert(e.send(renter.address, "extendRental", [tampered, await e.signExtension(x)]), "UnauthorizedSigner");
    const late = await e.extension(q.rentalId, { deadline: (await chain.now()) - 1n });
    await expectRevert(e.send(renter.address, "extendRental", [late, await e.signExtension(late)]), "QuoteExpired");
  });

  it("refuses an ended rental", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId, { deadline: (await chain.now()) + 7_200n });
    await chain.testClient.setNextBlockTimestamp({ timestamp: x.endsAt });
    await expectRevert(e.send(renter.address, "extendRental", [x, await e.signExtension(x)]), "RentalEnded", [q.rentalId, x.endsAt]);
  });

  it("refuses a disputed, settled or unknown rental", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId);
    await e.send(renter.address, "openDispute", [q.rentalId]);
    await expectRevert(e.send(renter.address, "extendRental", [x, await e.signExtension(x)]), "InvalidStatus", [
      q.rentalId,
      Status.Disputed,
    ]);
    await e.send(owner.address, "acceptDispute", [q.rentalId]);
    await expectRevert(e.send(renter.address, "extendRental", [x, await e.signExtension(x)]), "InvalidStatus", [
      q.rentalId,
      Status.Refunded,
    ]);
    const unknown = { ...x, rentalId: `0x${"42".repeat(32)}` as const };
    await expectRevert(e.send(renter.address, "extendRental", [unknown, await e.signExtension(unknown)]), "InvalidStatus");
  });

  it("refuses while paused", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId);
    await e.send(operator.address, "pause");
    await expectRevert(e.send(renter.address, "extendRental", [x, await e.signExtension(x)]), "EnforcedPause");
  });
});

describe("an extended rental is one rental", () => {
  it("is settled by minutes over its whole length: the refund may reach the whole extended price", async () => {
    const q = await hourRental();
    const x = await e.extension(q.rentalId);
    await extendWithPermit(x);
    const { endsAt } = await e.rental(q.rentalId);
    // Not at the old end: the rental now runs another hour.
    await chain.testClient.setNextBlockTimestamp({ timestamp: x.endsAt });
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, 0n, slaHash([])]), "NotEnded", [q.rentalId, BigInt(endsAt)]);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) });
    // 30 of 120 minutes down: a quarter of 50 USDC back.
    await expectRevert(e.send(operator.address, "settle", [q.rentalId, 50_000_001n, slaHash([])]), "RefundAbovePrice");
    const ownerBefore = await e.balanceOf(owner.address);
    const treasuryBefore = await e.balanceOf(treasury.address);
    const receipt = await e.send(operator.address, "settle", [q.rentalId, 12_500_000n, slaHash([0n, 30n])]);
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: 37_500_000n, fee: 2n * FEE }]);
    expect(await e.balanceOf(renter.address)).toBe(12_500_000n);
    expect((await e.balanceOf(owner.address)) - ownerBefore).toBe(37_500_000n);
    expect((await e.balanceOf(treasury.address)) - treasuryBefore).toBe(2n * FEE);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("is refunded in full (both prices and both fees) when its dispute is accepted", async () => {
    const q = await hourRental();
    await extendWithPermit(await e.extension(q.rentalId));
    await e.send(renter.address, "openDispute", [q.rentalId]);
    await e.send(owner.address, "acceptDispute", [q.rentalId]);
    expect(await e.balanceOf(renter.address)).toBe(52_000_000n);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("the arbiter may refund up to the extended price", async () => {
    const q = await hourRental();
    await extendWithPermit(await e.extension(q.rentalId));
    await e.send(renter.address, "openDispute", [q.rentalId]);
    await e.send(arbiter.address, "resolveDispute", [q.rentalId, 30_000_000n]);
    expect(await e.balanceOf(renter.address)).toBe(30_000_000n);
    await expectSolvent(e);
  });
});
