// RentalEscrow against a real EVM (anvil): every entry point's success and revert paths, exact
// money movements, hostile tokens (blacklisting, reentrant) and permit checkout.
import {
  type Hex,
  type TransactionReceipt,
  decodeErrorResult,
  encodeDeployData,
  encodeFunctionData,
  keccak256,
  parseEventLogs,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import { startChain } from "./anvil";
import {
  type Escrow,
  FEE,
  Status,
  admin,
  arbiter,
  deployEscrow,
  escrowAbi,
  operator,
  other,
  owner,
  owner2,
  renter,
  renter2,
  revertOf,
  signer,
  treasury,
  escrowId,
} from "./escrow";

let chain: Awaited<ReturnType<typeof startChain>>;
let e: Escrow;
let snapshot: Hex;

beforeAll(async () => {
  chain = await startChain();
  e = await deployEscrow(chain, "TestUSDC");
});
afterAll(() => chain?.stop());
// Every test starts from the same chain state (and clock).
beforeEach(async () => {
  snapshot = await chain.testClient.snapshot();
});
afterEach(async () => {
  await chain.testClient.revert({ id: snapshot });
});

async function expectRevert(call: Promise<unknown>, name: string, args?: readonly unknown[]) {
  const error = await revertOf(call);
  expect(error.name).toBe(name);
  if (args) expect(error.args).toEqual(args);
}

function events(receipt: TransactionReceipt, eventName: string) {
  return parseEventLogs({ abi: escrowAbi, logs: receipt.logs })
    .filter((log) => log.eventName === eventName)
    .map((log) => log.args);
}

/** The escrow holds exactly what it owes: escrowed rentals plus credits. */
async function expectSolvent(x: Escrow) {
  expect(await x.balanceOf(x.escrow)).toBe(await x.totalOwed());
}

/** Creates a rental and moves the clock to its end. */
async function endedRental(x: Escrow, overrides = {}) {
  const q = await x.quote(overrides);
  await x.create(q);
  await chain.increaseTime(q.duration);
  return q;
}

const ROLE = {
  signer: keccak256(toHex("QUOTE_SIGNER_ROLE")),
  operator: keccak256(toHex("OPERATOR_ROLE")),
  arbiter: keccak256(toHex("ARBITER_ROLE")),
  admin: `0x${"0".repeat(64)}` as Hex,
};

describe("deployment", () => {
  it("grants the roles, sets the treasury and exposes the EIP-712 domain", async () => {
    expect(await e.read("hasRole", [ROLE.admin, admin.address])).toBe(true);
    expect(await e.read("hasRole", [ROLE.signer, signer.address])).toBe(true);
    expect(await e.read("hasRole", [ROLE.operator, operator.address])).toBe(true);
    expect(await e.read("hasRole", [ROLE.arbiter, arbiter.address])).toBe(true);
    expect(await e.read("QUOTE_SIGNER_ROLE")).toBe(ROLE.signer);
    expect(await e.read("treasury")).toBe(treasury.address);
    expect(await e.read("token")).toBe(e.token);
    const [, name, version, chainId, verifyingContract] = (await e.read("eip712Domain")) as readonly unknown[];
    expect([name, version, chainId, verifyingContract]).toEqual(["RentalEscrow", "1", 31337n, e.escrow]);
    expect(await e.read("QUOTE_TYPEHASH")).toBe(
      keccak256(
        toHex(
          "Quote(bytes32 rentalId,address renter,address owner,uint256 price,uint256 fee,uint64 duration,uint64 deadline)",
        ),
      ),
    );
  });

  it("rejects a zero address", async () => {
    const args = [e.token, admin.address, zeroAddress, signer.address, operator.address, arbiter.address] as const;
    const data = encodeDeployData({ abi: escrowAbi, bytecode: RentalEscrow.bytecode, args });
    const error = await chain.publicClient.call({ account: admin.address, data }).catch((err: unknown) => err);
    const raw = (error as { walk: (f: (e: unknown) => boolean) => { data?: Hex } | null }).walk(
      (inner) => typeof (inner as { data?: unknown }).data === "string",
    )?.data;
    expect(decodeErrorResult({ abi: escrowAbi, data: raw! }).errorName).toBe("ZeroAddress");
  });
});

describe("createRental", () => {
  it("takes price + fee from the renter and records the rental", async () => {
    const q = await e.quote({ price: 49_990_000n });
    await e.sendToken(admin.address, "mint", [renter.address, 100_000_000n]);
    await e.sendToken(renter.address, "approve", [e.escrow, q.price + q.fee]);
    const receipt = await e.send(renter.address, "createRental", [q, await e.signQuote(q)]);

    const { timestamp } = await chain.publicClient.getBlock({ blockHash: receipt.blockHash });
    const startsAt = Number(timestamp);
    const endsAt = startsAt + Number(q.duration);
    expect(await e.balanceOf(renter.address)).toBe(100_000_000n - 49_990_000n - 1_000_000n);
    expect(await e.balanceOf(e.escrow)).toBe(50_990_000n);
    expect(await e.totalOwed()).toBe(50_990_000n);
    expect(await e.rental(q.rentalId)).toEqual({
      renter: renter.address,
      startsAt,
      endsAt,
      status: Status.Active,
      owner: owner.address,
      price: q.price,
      fee: FEE,
    });
    expect(events(receipt, "RentalCreated")).toEqual([
      {
        id: q.rentalId,
        renter: renter.address,
        owner: owner.address,
        price: q.price,
        fee: q.fee,
        startsAt: BigInt(startsAt),
        endsAt: BigInt(endsAt),
      },
    ]);
  });

  it("accepts a quote on its deadline and refuses it one second later", async () => {
    const onTime = await e.quote({ deadline: (await chain.now()) + 3n }); // mint, approve, create: +3 s
    await e.create(onTime);
    const late = await e.quote({ deadline: (await chain.now()) + 2n });
    await expectRevert(e.create(late), "QuoteExpired", [late.deadline]);
  });

  it("refuses a malformed signature", async () => {
    const q = await e.quote();
    await expectRevert(e.create(q, "0x1234"), "InvalidSignature");
    const highS = `0x${"11".repeat(32)}${"ff".repeat(32)}1b` as Hex; // s above n/2: malleable
    await expectRevert(e.create(q, highS), "InvalidSignature");
  });

  it("refuses a quote altered after signing", async () => {
    const q = await e.quote();
    const signature = await e.signQuote(q);
    const { name, args } = await revertOf(e.create({ ...q, price: 1_000_000n }, signature));
    expect(name).toBe("UnauthorizedSigner");
    expect(args[0]).not.toBe(signer.address);
  });

  it("refuses a quote signed by an account without the signer role, or whose role was revoked", async () => {
    const q = await e.quote();
    await expectRevert(e.create(q, await e.signQuote(q, other)), "UnauthorizedSigner", [other.address]);
    await e.send(admin.address, "revokeRole", [ROLE.signer, signer.address]);
    await expectRevert(e.create(q), "UnauthorizedSigner", [signer.address]);
  });

  it("redeems a quote at most once: the rental id cannot be reused", async () => {
    const q = await e.quote();
    const signature = await e.signQuote(q);
    await e.create(q, signature);
    await expectRevert(e.create(q, signature), "RentalExists", [q.rentalId]);
    const reQuoted = { ...q, price: 1_000_000n, deadline: q.deadline + 1n };
    await expectRevert(e.create(reQuoted), "RentalExists", [q.rentalId]);
  });

  it("refuses zero price, zero fee, zero duration and a zero owner", async () => {
    await expectRevert(e.create(await e.quote({ price: 0n })), "ZeroAmount");
    await expectRevert(e.create(await e.quote({ fee: 0n })), "ZeroAmount");
    await expectRevert(e.create(await e.quote({ duration: 0n })), "ZeroDuration");
    await expectRevert(e.create(await e.quote({ owner: zeroAddress })), "ZeroAddress");
  });

  it("refuses amounts that do not fit the packed storage", async () => {
    await expectRevert(e.create(await e.quote({ price: 2n ** 56n })), "SafeCastOverflowedUintDowncast", [56, 2n ** 56n]);
    await expectRevert(e.create(await e.quote({ fee: 2n ** 40n })), "SafeCastOverflowedUintDowncast", [40, 2n ** 40n]);
  });

  it("must be sent by the quote's renter", async () => {
    const q = await e.quote();
    await e.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    await e.sendToken(renter.address, "approve", [e.escrow, q.price + q.fee]);
    await expectRevert(e.send(other.address, "createRental", [q, await e.signQuote(q)]), "SenderNotRenter");
  });

  it("fails without allowance", async () => {
    const q = await e.quote();
    await e.sendToken(admin.address, "mint", [renter.address, q.price + q.fee]);
    const error = await revertOf(e.send(renter.address, "createRental", [q, await e.signQuote(q)]));
    expect(error.name).toBe(toFunctionSelector("ERC20InsufficientAllowance(address,uint256,uint256)"));
  });

  it("is blocked while paused and works again after unpause", async () => {
    await e.send(operator.address, "pause");
    await expectRevert(e.create(await e.quote()), "EnforcedPause");
    await e.send(admin.address, "unpause");
    await e.create(await e.quote());
  });
});

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
  it("pays the owner the price and the treasury the fee, once the rental has ended", async () => {
    const q = await e.quote({ price: 12_345_678n });
    await e.create(q);
    const { endsAt } = await e.rental(q.rentalId);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) - 1n });
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "NotEnded", [q.rentalId, BigInt(endsAt)]);

    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) });
    const receipt = await e.send(other.address, "release", [q.rentalId]); // anyone may release
    expect(await e.balanceOf(owner.address)).toBe(12_345_678n);
    expect(await e.balanceOf(treasury.address)).toBe(1_000_000n);
    expect(await e.balanceOf(e.escrow)).toBe(0n);
    expect(await e.totalOwed()).toBe(0n);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    expect(events(receipt, "RentalReleased")).toEqual([
      { id: q.rentalId, owner: owner.address, price: 12_345_678n, fee: FEE },
    ]);
  });

  it("refuses a second release and an unknown id", async () => {
    const q = await endedRental(e);
    await e.send(other.address, "release", [q.rentalId]);
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Released]);
    const unknown = escrowId("never created");
    await expectRevert(e.send(other.address, "release", [unknown]), "InvalidStatus", [unknown, Status.None]);
    expect(await e.balanceOf(owner.address)).toBe(25_000_000n);
  });
});

describe("releaseMany", () => {
  it("releases what is releasable and skips the rest", async () => {
    const ended = [await e.quote(), await e.quote({ owner: owner2.address }), await e.quote({ price: 7_000_000n })];
    const running = await e.quote({ duration: 86_400n });
    const disputed = await e.quote({ duration: 86_400n });
    const settled = await e.quote();
    for (const q of [...ended, running, disputed, settled]) await e.create(q);
    await e.send(renter.address, "openDispute", [disputed.rentalId]);
    await chain.increaseTime(3_600);
    await e.send(other.address, "release", [settled.rentalId]);

    const unknown = escrowId("never created either");
    const [a, b, c] = ended.map((q) => q.rentalId);
    const ids = [unknown, a, running.rentalId, b, disputed.rentalId, settled.rentalId, c, a]; // `a` twice
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
    expect((await e.rental(running.rentalId)).status).toBe(Status.Active);
    expect((await e.rental(disputed.rentalId)).status).toBe(Status.Disputed);
    expect(await e.totalOwed()).toBe(2n * (25_000_000n + FEE));
    await expectSolvent(e);
  });

  it("accepts an empty batch", async () => {
    const receipt = await e.send(other.address, "releaseMany", [[]]);
    expect(receipt.logs).toHaveLength(0);
  });
});

describe("disputes", () => {
  it("freezes the funds until the arbiter refunds the renter in full", async () => {
    const q = await e.quote();
    await e.create(q);
    const opened = await e.send(renter.address, "openDispute", [q.rentalId]);
    expect(events(opened, "DisputeOpened")).toEqual([{ id: q.rentalId }]);
    await chain.increaseTime(q.duration);
    await expectRevert(e.send(other.address, "release", [q.rentalId]), "InvalidStatus", [q.rentalId, Status.Disputed]);
    await e.send(other.address, "releaseMany", [[q.rentalId]]);
    expect(await e.balanceOf(e.escrow)).toBe(q.price + q.fee);

    const resolved = await e.send(arbiter.address, "resolveDispute", [q.rentalId, true]);
    expect(events(resolved, "DisputeResolved")).toEqual([{ id: q.rentalId, refunded: true }]);
    expect(await e.balanceOf(renter.address)).toBe(q.price + q.fee);
    expect(await e.balanceOf(owner.address)).toBe(0n);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Refunded);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("can be resolved by releasing to owner and treasury, before the end too", async () => {
    const q = await e.quote();
    await e.create(q);
    await e.send(renter.address, "openDispute", [q.rentalId]);
    const resolved = await e.send(arbiter.address, "resolveDispute", [q.rentalId, false]);
    expect(events(resolved, "DisputeResolved")).toEqual([{ id: q.rentalId, refunded: false }]);
    expect(events(resolved, "RentalReleased")).toHaveLength(1);
    expect(await e.balanceOf(owner.address)).toBe(q.price);
    expect(await e.balanceOf(treasury.address)).toBe(FEE);
    expect((await e.rental(q.rentalId)).status).toBe(Status.Released);
    const again = e.send(arbiter.address, "resolveDispute", [q.rentalId, true]);
    await expectRevert(again, "InvalidStatus", [q.rentalId, Status.Released]);
  });

  it("may only be opened by the renter, while the rental runs and is active", async () => {
    const q = await e.quote();
    await e.create(q);
    await expectRevert(e.send(other.address, "openDispute", [q.rentalId]), "SenderNotRenter");
    const { endsAt } = await e.rental(q.rentalId);
    await chain.testClient.setNextBlockTimestamp({ timestamp: BigInt(endsAt) });
    await expectRevert(e.send(renter.address, "openDispute", [q.rentalId]), "RentalEnded", [q.rentalId, BigInt(endsAt)]);

    const q2 = await e.quote();
    await e.create(q2);
    await e.send(renter.address, "openDispute", [q2.rentalId]);
    await expectRevert(e.send(renter.address, "openDispute", [q2.rentalId]), "InvalidStatus", [q2.rentalId, Status.Disputed]);
  });

  it("may only be resolved by the arbiter, and only when disputed", async () => {
    const q = await e.quote();
    await e.create(q);
    const early = e.send(arbiter.address, "resolveDispute", [q.rentalId, true]);
    await expectRevert(early, "InvalidStatus", [q.rentalId, Status.Active]);
    await e.send(renter.address, "openDispute", [q.rentalId]);
    for (const account of [renter, operator, admin]) {
      await expectRevert(e.send(account.address, "resolveDispute", [q.rentalId, true]), "AccessControlUnauthorizedAccount", [
        account.address,
        ROLE.arbiter,
      ]);
    }
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

describe("administration", () => {
  it("lets the admin change the treasury, which then receives the fees", async () => {
    const receipt = await e.send(admin.address, "setTreasury", [other.address]);
    expect(events(receipt, "TreasuryChanged")).toEqual([{ previous: treasury.address, current: other.address }]);
    const q = await endedRental(e);
    await e.send(renter.address, "release", [q.rentalId]);
    expect(await e.balanceOf(other.address)).toBe(FEE);
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
    await e.send(operator.address, "pause");
    await e.send(other.address, "release", [q.rentalId]);
    await expectRevert(e.send(renter.address, "openDispute", [disputed.rentalId]), "RentalEnded");
    const running = await e.quote();
    await e.send(admin.address, "unpause");
    await e.create(running);
    await e.send(operator.address, "pause");
    await e.send(renter.address, "openDispute", [running.rentalId]);
    await e.send(arbiter.address, "resolveDispute", [running.rentalId, true]);
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
      const receipt = await b.send(other.address, "release", [q.rentalId]);
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
    await chain.increaseTime(3_600);
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
  const call = (functionName: string, args: readonly unknown[] = []) =>
    encodeFunctionData({ abi: escrowAbi, functionName, args } as never);

  it("refuses a release re-entered from a payout; the outer release completes", async () => {
    const a = await x.quote();
    const second = await x.quote();
    await x.create(a);
    await x.create(second);
    await chain.increaseTime(3_600);
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

  it("refuses withdraw and releaseMany re-entered from a payout or a payment", async () => {
    const a = await endedRental(x);
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
