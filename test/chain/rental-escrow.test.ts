// RentalEscrow against a real EVM (anvil): every entry point's success and revert paths, exact
// money movements, hostile tokens (blacklisting, reentrant) and permit checkout.
import { decodeErrorResult, encodeDeployData, type Hex, keccak256, toFunctionSelector, toHex, zeroAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import { admin, arbiter, type Escrow, escrowAbi, FEE, operator, other, owner, renter, revertOf, Status, signer, treasury } from "./escrow";
import { type Chain, escrowSuite, events, expectRevert, ROLE } from "./escrow-suite";

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});

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
      keccak256(toHex("Quote(bytes32 rentalId,address renter,address owner,uint256 price,uint256 fee,uint64 duration,uint64 deadline)")),
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
