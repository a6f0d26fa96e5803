// RentalEscrow against a real EVM (anvil): every entry point's success and revert paths, exact
// money movements, hostile tokens (blacklisting, reentrant) and permit checkout.
import type { Hex } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, arbiter, type Escrow, escrowAbi, escrowId, FEE, operator, other, owner, owner2, renter, Status, treasury } from "./escrow";
import {
  type Chain,
  escrowSuite,
  events,
  expectRevert,
  expectSolvent,
  ROLE,
  releasableRental as releasableRentalOn,
  SETTLE_GRACE,
  slaHash,
} from "./escrow-suite";

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});
const releasableRental = (x: Escrow, overrides = {}) => releasableRentalOn(chain, x, overrides);

describe("createRentalWithPermit", () => {
  async function permitArgs(q: Awaited<ReturnType<Escrow["quote"]>>) {
    const deadline = (await chain.now()) + 600n;
    const { v, r, s } = await e.signPermit(q, deadline);
    return { deadline, v, r, s };
  }

  it("checks out in one transaction from the renter", async () => {
    const q = await e.quote();
    await e.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    const p = await permitArgs(q);
    const nonceBefore = await chain.publicClient.getTransactionCount({ address: renter.address });
    const args = [q, await e.signQuote(q), p.deadline, p.v, p.r, p.s];
    const receipt = await e.send(renter.address, "createRentalWithPermit", args);
    expect(await chain.publicClient.getTransactionCount({ address: renter.address })).toBe(nonceBefore + 1);
    expect(events(receipt, "RentalCreated")).toHaveLength(1);
    expect(await e.balanceOf(renter.address)).toBe(0n);
    expect(await e.balanceOf(e.escrow)).toBe(q.price + q.fee);
  });

  it("still succeeds when someone submitted the permit first", async () => {
    const q = await e.quote();
    await e.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    const p = await permitArgs(q);
    await e.sendToken(other.address, "permit", [renter.address, e.escrow, q.price + q.fee, p.deadline, p.v, p.r, p.s]);
    const args = [q, await e.signQuote(q), p.deadline, p.v, p.r, p.s];
    const receipt = await e.send(renter.address, "createRentalWithPermit", args);
    expect(events(receipt, "RentalCreated")).toHaveLength(1);
    await expectSolvent(e);
  });

  it("reverts when the permit fails and no allowance is in place", async () => {
    const q = await e.quote();
    await e.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    const junk = `0x${"11".repeat(32)}` as Hex;
    await expectRevert(
      e.send(renter.address, "createRentalWithPermit", [q, await e.signQuote(q), (await chain.now()) + 600n, 27, junk, junk]),
      "PermitFailed",
    );
  });
});

describe("release", () => {
  it("pays the owner the price and the treasury the fee, once SETTLE_GRACE has passed since the end", async () => {
    const q = await e.quote({ price: 12_345_678n });
    await e.create(q);
    const { endsAt } = await e.rental(q.rentalId);
    const releasableAt = BigInt(endsAt) + SETTLE_GRACE;
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) - 1n });
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "NotEnded", [q.rentalId, BigInt(endsAt)]);
    // Ended, but its availability is the operator's to settle first.
    for (const at of [BigInt(endsAt), releasableAt - 1n]) {
      await chain.testClient.setNextBlockTimestamp({ timestamp: at });
      await expectRevert(e.send(other.address, "release", [q.rentalId]), "SettlementPending", [q.rentalId, releasableAt]);
    }

    await chain.testClient.setNextBlockTimestamp({ timestamp: releasableAt });
    const receipt = await e.send(other.address, "release", [q.rentalId]); // anyone may release
    expect(await e.balanceOf(owner.address)).toBe(12_345_678n);
    expect(await e.balanceOf(treasury.address)).toBe(1_000_000n);
    expect(await e.balanceOf(e.escrow)).toBe(0n);
    expect(await e.totalOwed()).toBe(0n);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    expect(events(receipt, "RentalReleased")).toEqual([{ id: q.rentalId, owner: owner.address, price: 12_345_678n, fee: FEE }]);
    expect(events(receipt, "RentalSettled")).toEqual([]);
    expect(await e.read("SETTLE_GRACE")).toBe(SETTLE_GRACE);
  });

  it("refuses a second release, a settled rental and an unknown id", async () => {
    const q = await releasableRental(e);
    await e.send(other.address, "release", [q.rentalId]);
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Released]);
    const unknown = escrowId("never created");
    await expectRevert(e.send(other.address, "release", [unknown]), "InvalidStatus", [unknown, Status.None]);
    expect(await e.balanceOf(owner.address)).toBe(25_000_000n);

    const settled = await releasableRental(e);
    await e.send(operator.address, "settle", [settled.rentalId, 0n, slaHash()]); // the operator may settle after the grace too
    await expectRevert(e.send(other.address, "release", [settled.rentalId]), "InvalidStatus", [settled.rentalId, Status.Released]);
    expect(await e.balanceOf(owner.address)).toBe(50_000_000n);
  });
});

describe("releaseMany", () => {
  it("releases what is releasable (SETTLE_GRACE past its end) and skips the rest", async () => {
    const ended = [await e.quote(), await e.quote({ owner: owner2.address }), await e.quote({ price: 7_000_000n })];
    const inGrace = await e.quote({ duration: 86_400n }); // ends a day later: still in its grace
    const running = await e.quote({ duration: 3n * 86_400n });
    const disputed = await e.quote({ duration: 3n * 86_400n });
    const settled = await e.quote();
    for (const q of [...ended, inGrace, running, disputed, settled]) await e.create(q);
    await e.send(renter.address, "openDispute", [disputed.rentalId]);
    await chain.increaseTime(3_600 + Number(SETTLE_GRACE));
    await e.send(other.address, "release", [settled.rentalId]);

    const unknown = escrowId("never created either");
    const [a, b, c] = ended.map((q) => q.rentalId);
    const ids = [unknown, a, running.rentalId, b, disputed.rentalId, inGrace.rentalId, settled.rentalId, c, a]; // `a` twice
    const { result } = await chain.publicClient.simulateContract({
      account: other.address,
      address: e.escrow,
      abi: escrowAbi,
      functionName: "releaseMany",
      args: [ids],
    });
    expect(result).toBe(3n);
    const receipt = await e.send(other.address, "releaseMany", [ids]);

    expect(events(receipt, "RentalReleased").map((args) => (args as { id: Hex }).id)).toEqual(ended.map((q) => q.rentalId));
    expect(await e.balanceOf(owner.address)).toBe(25_000_000n + 25_000_000n + 7_000_000n); // settled + two ended
    expect(await e.balanceOf(owner2.address)).toBe(25_000_000n);
    expect(await e.balanceOf(treasury.address)).toBe(4n * FEE);
    for (const q of ended) expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    expect((await e.rental(inGrace.rentalId)).status).toBe(Status.Active);
    expect((await e.rental(running.rentalId)).status).toBe(Status.Active);
    expect((await e.rental(disputed.rentalId)).status).toBe(Status.Disputed);
    expect(await e.totalOwed()).toBe(3n * (25_000_000n + FEE));
    await expectSolvent(e);
  });

  it("accepts an empty batch", async () => {
    const receipt = await e.send(other.address, "releaseMany", [[]]);
    expect(receipt.logs).toHaveLength(0);
  });
});

describe("cancel", () => {
  it("refunds the renter in full", async () => {
    const q = await e.quote();
    await e.create(q);
    const receipt = await e.send(operator.address, "cancel", [q.rentalId]);
    expect(events(receipt, "RentalCancelled")).toEqual([{ id: q.rentalId }]);
    expect(await e.balanceOf(renter.address)).toBe(q.price + q.fee);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Refunded);
    expect(await e.totalOwed()).toBe(0n);
    await expectRevert(e.send(operator.address, "cancel", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Refunded]);
  });

  it("is for the operator only, and not for disputed rentals", async () => {
    const q = await e.quote();
    await e.create(q);
    for (const account of [renter, arbiter, admin]) {
      await expectRevert(e.send(account.address, "cancel", [q.rentalId]), "AccessControlUnauthorizedAccount", [
        account.address,
        ROLE.operator,
      ]);
    }
    await e.send(renter.address, "openDispute", [q.rentalId]);
    await expectRevert(e.send(operator.address, "cancel", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Disputed]);
  });
});
