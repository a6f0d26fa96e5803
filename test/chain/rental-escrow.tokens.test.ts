// RentalEscrow against a real EVM (anvil): every entry point's success and revert paths, exact
// money movements, hostile tokens (blacklisting, reentrant) and permit checkout.
import { encodeFunctionData, type Hex, toFunctionSelector, zeroAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  arbiter,
  deployEscrow,
  type Escrow,
  escrowAbi,
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
const endedRental = (x: Escrow, overrides = {}) => endedRentalOn(chain, x, overrides);
const releasableRental = (x: Escrow, overrides = {}) => releasableRentalOn(chain, x, overrides);
const settleArgs = (id: Hex, refund = 0n) => [id, refund, slaHash()];

describe("administration", () => {
  it("lets the admin change the treasury, which then receives the fees", async () => {
    const receipt = await e.send(admin.address, "setTreasury", [other.address]);
    expect(events(receipt, "TreasuryChanged")).toEqual([{ previous: treasury.address, current: other.address }]);
    const q = await endedRental(e);
    await e.send(operator.address, "settle", settleArgs(q.rentalId));
    expect(await e.balanceOf(other.address)).toBe(FEE);
    const late = await releasableRental(e);
    await e.send(renter.address, "release", [late.rentalId]);
    expect(await e.balanceOf(other.address)).toBe(2n * FEE);
    expect(await e.balanceOf(treasury.address)).toBe(0n);
  });

  it("refuses a zero treasury and a non-admin", async () => {
    await expectRevert(e.send(admin.address, "setTreasury", [zeroAddress]), "ZeroAddress");
    await expectRevert(e.send(operator.address, "setTreasury", [other.address]), "AccessControlUnauthorizedAccount", [
      operator.address,
      ROLE.admin,
    ]);
  });

  it("lets admin or operator pause, only the admin unpause", async () => {
    await expectRevert(e.send(other.address, "pause"), "AccessControlUnauthorizedAccount", [other.address, ROLE.admin]);
    await e.send(admin.address, "pause");
    await expectRevert(e.send(operator.address, "unpause"), "AccessControlUnauthorizedAccount", [operator.address, ROLE.admin]);
    await e.send(admin.address, "unpause");
    await e.send(operator.address, "pause");
    expect(await e.read("paused")).toBe(true);
  });

  it("keeps settlement and disputes working while paused", async () => {
    const disputed = await e.quote();
    await e.create(disputed);
    const q = await endedRental(e, { renter: renter2.address });
    const late = await releasableRental(e, { renter: renter2.address });
    await e.send(operator.address, "pause");
    await e.send(operator.address, "settle", settleArgs(q.rentalId, 1n));
    await e.send(other.address, "release", [late.rentalId]);
    await expectRevert(e.send(renter.address, "openDispute", [disputed.rentalId]), "RentalEnded");
    const running = await e.quote();
    await e.send(admin.address, "unpause");
    await e.create(running);
    await e.send(operator.address, "pause");
    await e.send(renter.address, "openDispute", [running.rentalId]);
    await e.send(arbiter.address, "resolveDispute", [running.rentalId, running.price]);
    await e.send(operator.address, "cancel", [disputed.rentalId]);
    await expectSolvent(e);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("has nothing to withdraw without credits", async () => {
    await expectRevert(e.send(owner.address, "withdraw"), "NothingToWithdraw");
  });
});

describe("with a token that blacklists payees", () => {
  let b: Escrow;
  beforeAll(async () => {
    b = await deployEscrow(chain, "BlacklistToken");
  });

  for (const quiet of [false, true]) {
    const how = quiet ? "returns false" : "reverts";
    it(`credits a blacklisted owner (transfer ${how}), pays the treasury, lets the owner withdraw later`, async () => {
      await b.sendToken(admin.address, "setQuiet", [quiet]);
      const q = await endedRental(b);
      await b.sendToken(admin.address, "setBlacklisted", [owner.address, true]);
      // Settled by the operator (quiet) or released by anyone after the grace (reverting token).
      if (!quiet) await chain.increaseTime(SETTLE_GRACE);
      const receipt = quiet
        ? await b.send(operator.address, "settle", settleArgs(q.rentalId))
        : await b.send(other.address, "release", [q.rentalId]);
      expect(events(receipt, "PayoutCredited")).toEqual([{ payee: owner.address, amount: q.price }]);
      expect(await b.balanceOf(treasury.address)).toBe(FEE);
      expect(await b.credits(owner.address)).toBe(q.price);
      expect(await b.totalOwed()).toBe(q.price);
      expect((await b.rental(q.rentalId)).status).toBe(Status.Released);
      await expectSolvent(b);

      // withdraw does not swallow failures: the payee keeps the credit and may retry.
      const refusal = quiet ? "SafeERC20FailedOperation" : toFunctionSelector("Blacklisted(address)");
      await expectRevert(b.send(owner.address, "withdraw"), refusal);
      expect(await b.credits(owner.address)).toBe(q.price);

      await b.sendToken(admin.address, "setBlacklisted", [owner.address, false]);
      const withdrawn = await b.send(owner.address, "withdraw");
      expect(events(withdrawn, "Withdrawn")).toEqual([{ payee: owner.address, amount: q.price }]);
      expect(await b.balanceOf(owner.address)).toBe(q.price);
      expect(await b.credits(owner.address)).toBe(0n);
      expect(await b.totalOwed()).toBe(0n);
      await expectSolvent(b);
    });
  }

  it("keeps a batch going past a blacklisted owner and credits a blacklisted treasury", async () => {
    const blocked = await b.quote();
    const fine = await b.quote({ owner: owner2.address });
    await b.create(blocked);
    await b.create(fine);
    await chain.increaseTime(3_600n + SETTLE_GRACE);
    await b.sendToken(admin.address, "setBlacklisted", [owner.address, true]);
    await b.sendToken(admin.address, "setBlacklisted", [treasury.address, true]);
    const receipt = await b.send(other.address, "releaseMany", [[blocked.rentalId, fine.rentalId]]);
    expect(events(receipt, "RentalReleased")).toHaveLength(2);
    expect(events(receipt, "PayoutCredited")).toEqual([
      { payee: owner.address, amount: blocked.price },
      { payee: treasury.address, amount: 2n * FEE },
    ]);
    expect(await b.balanceOf(owner2.address)).toBe(fine.price);
    expect(await b.credits(treasury.address)).toBe(2n * FEE);
    await expectSolvent(b);
  });

  it("keeps a settlement batch going past a blacklisted renter: its availability refund is credited", async () => {
    const blocked = await b.quote();
    const fine = await b.quote({ renter: renter2.address, owner: owner2.address });
    await b.create(blocked);
    await b.create(fine);
    await chain.increaseTime(3_600);
    await b.sendToken(admin.address, "setBlacklisted", [renter.address, true]);
    const refund = blocked.price / 4n;
    const receipt = await b.send(operator.address, "settleMany", [
      [
        { id: blocked.rentalId, refund, slaHash: slaHash([1n]) },
        { id: fine.rentalId, refund: 5n, slaHash: slaHash([2n]) },
      ],
    ]);
    expect(events(receipt, "RentalSettled")).toHaveLength(2);
    expect(events(receipt, "PayoutCredited")).toEqual([{ payee: renter.address, amount: refund }]);
    expect(await b.credits(renter.address)).toBe(refund);
    expect(await b.balanceOf(renter2.address)).toBe(5n);
    expect(await b.balanceOf(owner.address)).toBe(blocked.price - refund);
    expect(await b.balanceOf(owner2.address)).toBe(fine.price - 5n);
    expect(await b.totalOwed()).toBe(refund);
    await expectSolvent(b);
  });

  it("credits a blacklisted renter's refund", async () => {
    const q = await b.quote();
    await b.create(q);
    await b.sendToken(admin.address, "setBlacklisted", [renter.address, true]);
    await b.send(operator.address, "cancel", [q.rentalId]);
    expect(await b.credits(renter.address)).toBe(q.price + q.fee);
    expect((await b.rental(q.rentalId)).status).toBe(Status.Refunded);
    await expectSolvent(b);
  });
});

describe("with a token that calls back into the escrow", () => {
  let x: Escrow;
  const reentrancyError = toFunctionSelector("ReentrancyGuardReentrantCall()");
  beforeAll(async () => {
    x = await deployEscrow(chain, "ReentrantToken");
  });

  async function hook(data: Hex) {
    await x.sendToken(admin.address, "setHook", [x.escrow, data]);
  }
  async function hookOutcome() {
    const read = (functionName: string) =>
      chain.publicClient.readContract({ address: x.token, abi: x.tokenAbi, functionName } as never) as Promise<unknown>;
    return { ok: await read("lastCallOk"), result: await read("lastCallResult") };
  }
  const call = (functionName: string, args: readonly unknown[] = []) => encodeFunctionData({ abi: escrowAbi, functionName, args } as never);

  it("refuses a release re-entered from a payout; the outer release completes", async () => {
    const a = await x.quote();
    const second = await x.quote();
    await x.create(a);
    await x.create(second);
    await chain.increaseTime(3_600n + SETTLE_GRACE);
    await hook(call("release", [second.rentalId]));
    await x.send(other.address, "release", [a.rentalId]);
    expect(await hookOutcome()).toEqual({ ok: false, result: reentrancyError });
    expect((await x.rental(a.rentalId)).status).toBe(Status.Released);
    expect((await x.rental(second.rentalId)).status).toBe(Status.Active);
    expect(await x.balanceOf(owner.address)).toBe(a.price);
    await expectSolvent(x);
    await x.send(other.address, "release", [second.rentalId]);
    await expectSolvent(x);
  });

  it("refuses a settle re-entered from a payout; the outer settle completes", async () => {
    const a = await x.quote();
    const second = await x.quote();
    await x.create(a);
    await x.create(second);
    await chain.increaseTime(3_600);
    await hook(call("settle", settleArgs(second.rentalId)));
    await x.send(operator.address, "settle", settleArgs(a.rentalId, 1n));
    expect(await hookOutcome()).toEqual({ ok: false, result: reentrancyError });
    expect((await x.rental(a.rentalId)).status).toBe(Status.Released);
    expect((await x.rental(second.rentalId)).status).toBe(Status.Active);
    await hook(call("settleMany", [[{ id: second.rentalId, refund: 0n, slaHash: slaHash() }]]));
    await x.send(operator.address, "settleMany", [[{ id: second.rentalId, refund: 0n, slaHash: slaHash() }]]);
    expect(await hookOutcome()).toEqual({ ok: false, result: reentrancyError });
    expect((await x.rental(second.rentalId)).status).toBe(Status.Released);
    await expectSolvent(x);
  });

  it("refuses withdraw and releaseMany re-entered from a payout or a payment", async () => {
    const a = await releasableRental(x);
    await hook(call("withdraw"));
    await x.send(other.address, "releaseMany", [[a.rentalId]]);
    expect(await hookOutcome()).toEqual({ ok: false, result: reentrancyError });

    const q = await x.quote();
    await x.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    await x.sendToken(renter.address, "approve", [x.escrow, q.price + q.fee]);
    await hook(call("releaseMany", [[q.rentalId]]));
    await x.send(renter.address, "createRental", [q, await x.signQuote(q)]);
    expect(await hookOutcome()).toEqual({ ok: false, result: reentrancyError });
    expect((await x.rental(q.rentalId)).status).toBe(Status.Active);
    await expectSolvent(x);
  });
});
