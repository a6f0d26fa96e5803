// RentalEscrow.payForMessage against a real EVM (anvil) and TestUSDC's EIP-3009: a caller's
// TransferWithAuthorization to the escrow, redeemed by the operator once the owner's agent has
// answered, credits the owner the price and the treasury the fee exactly once, whoever submits
// the authorization first; a cancelled, expired or underfunded authorization credits nothing.
import { type Address, ContractFunctionRevertedError, type Hex, type LocalAccount, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import * as TestUSDC from "@/lib/chain/generated/TestUSDC";
import { admin, type Escrow, operator, other, owner, treasury } from "./escrow";
import { type Chain, escrowSuite, expectRevert, ROLE } from "./escrow-suite";
import { authorize, type MessagePaymentArgs, payForMessageAbi, signCancel, tokenTransferArgs } from "./message-payments";

const suite = escrowSuite();
let chain: Chain;
let e: Escrow;
beforeAll(() => {
  ({ chain, e } = suite);
});

const PRICE = 250_000n; // 0.25 USDC an answer
const FEE = 25_000n;

/** A fresh payer (no ETH: it only signs) holding `usdc`. */
async function newPayer(usdc = 10_000_000n): Promise<LocalAccount> {
  const payer = privateKeyToAccount(generatePrivateKey());
  if (usdc > 0n) await e.sendToken(admin.address, "mint", [payer.address, usdc]);
  return payer;
}

function sign(payer: LocalAccount, terms: Partial<Parameters<typeof authorize>[3]> = {}) {
  return authorize(chain.publicClient, e, payer, { owner: owner.address, price: PRICE, fee: FEE, ...terms });
}

/** payForMessage from `from` (the operator unless told), waited for; reverts decode with the token's errors too. */
async function pay(payment: MessagePaymentArgs, signature: Hex, from: Address = operator.address) {
  const hash = await chain.walletClient.writeContract({
    account: from,
    address: e.escrow,
    abi: payForMessageAbi,
    functionName: "payForMessage",
    args: [payment, signature],
  });
  const receipt = await chain.mined(hash);
  if (receipt.status !== "success") {
    // anvil mines reverting transactions: their revert data is read from a trace (as escrow.ts does).
    const trace = (await chain.publicClient.request({
      method: "debug_traceTransaction",
      params: [hash, { tracer: "callTracer" }],
    } as never)) as { output?: Hex };
    throw new ContractFunctionRevertedError({ abi: payForMessageAbi, data: trace.output, functionName: "payForMessage" });
  }
  return receipt;
}

async function snapshotMoney(payer: Address) {
  const [payerUsdc, escrowUsdc, ownerCredit, treasuryCredit, owed] = await Promise.all([
    e.balanceOf(payer),
    e.balanceOf(e.escrow),
    e.credits(owner.address),
    e.credits(treasury.address),
    e.totalOwed(),
  ]);
  return { payerUsdc, escrowUsdc, ownerCredit, treasuryCredit, owed };
}

const paid = (payment: MessagePaymentArgs) => e.read("messagePaid", [payment.payer, payment.nonce]) as Promise<boolean>;

describe("payForMessage", () => {
  it("moves price + fee from the payer into the escrow and credits the owner the price and the treasury the fee, once", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    const before = await snapshotMoney(payer.address);
    const receipt = await pay(payment, signature);

    expect(await snapshotMoney(payer.address)).toEqual({
      payerUsdc: before.payerUsdc - PRICE - FEE,
      escrowUsdc: before.escrowUsdc + PRICE + FEE,
      ownerCredit: before.ownerCredit + PRICE,
      treasuryCredit: before.treasuryCredit + FEE,
      owed: before.owed + PRICE + FEE,
    });
    expect(await e.balanceOf(e.escrow)).toBe(await e.totalOwed());
    expect(await paid(payment)).toBe(true);
    const events = parseEventLogs({ abi: payForMessageAbi, logs: receipt.logs });
    const mine = events.filter((log) => log.address.toLowerCase() === e.escrow.toLowerCase()).map((log) => log.eventName);
    expect(mine).toEqual(["MessagePaid"]); // no PayoutCredited: credits are how answers are paid
    const messagePaid = events.find((log) => log.eventName === "MessagePaid")!;
    expect(messagePaid.args).toEqual({ payer: payer.address, nonce: payment.nonce, owner: owner.address, price: PRICE, fee: FEE });
    // The token says the authorization is used.
    expect(
      await chain.publicClient.readContract({
        address: e.token,
        abi: TestUSDC.abi,
        functionName: "authorizationState",
        args: [payer.address, payment.nonce],
      }),
    ).toBe(true);
  });

  it("the owner and the treasury withdraw their credits", async () => {
    const payer = await newPayer();
    const first = await sign(payer);
    const second = await sign(payer);
    await pay(first.payment, first.signature);
    await pay(second.payment, second.signature);
    const [ownerUsdc, treasuryUsdc, ownerCredit, treasuryCredit] = await Promise.all([
      e.balanceOf(owner.address),
      e.balanceOf(treasury.address),
      e.credits(owner.address),
      e.credits(treasury.address),
    ]);
    expect(ownerCredit).toBe(2n * PRICE);
    expect(treasuryCredit).toBe(2n * FEE);
    await e.send(owner.address, "withdraw");
    await e.send(treasury.address, "withdraw");
    expect(await e.balanceOf(owner.address)).toBe(ownerUsdc + 2n * PRICE);
    expect(await e.balanceOf(treasury.address)).toBe(treasuryUsdc + 2n * FEE);
    expect(await e.credits(owner.address)).toBe(0n);
    expect(await e.totalOwed()).toBe(0n);
    expect(await e.balanceOf(e.escrow)).toBe(0n);
  });

  it("an authorization is credited once: the same one again reverts MessageAlreadyPaid and credits nothing", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    await pay(payment, signature);
    const after = await snapshotMoney(payer.address);
    await expectRevert(pay(payment, signature), "MessageAlreadyPaid", [payer.address, payment.nonce]);
    // Another owner or split for the same authorization is the same authorization.
    await expectRevert(pay({ ...payment, owner: other.address }, signature), "MessageAlreadyPaid");
    expect(await snapshotMoney(payer.address)).toEqual(after);
  });

  it("front-run: a stranger submits the authorization to the token first; payForMessage credits it once, from the uncredited money", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    const before = await snapshotMoney(payer.address);
    await e.sendToken(other.address, "transferWithAuthorization", tokenTransferArgs(payment, e.escrow, signature));
    // The money is in the escrow, owed to nobody yet.
    expect(await e.balanceOf(e.escrow)).toBe(before.escrowUsdc + PRICE + FEE);
    expect(await e.totalOwed()).toBe(before.owed);

    await pay(payment, signature);
    expect(await snapshotMoney(payer.address)).toEqual({
      payerUsdc: before.payerUsdc - PRICE - FEE,
      escrowUsdc: before.escrowUsdc + PRICE + FEE,
      ownerCredit: before.ownerCredit + PRICE,
      treasuryCredit: before.treasuryCredit + FEE,
      owed: before.owed + PRICE + FEE,
    });
    expect(await e.balanceOf(e.escrow)).toBe(await e.totalOwed());
    await expectRevert(pay(payment, signature), "MessageAlreadyPaid");
  });

  it("a used authorization is credited only from money owed to nobody: two front-run ones each once, then a cancelled one nothing", async () => {
    const payer = await newPayer();
    const a = await sign(payer);
    const b = await sign(payer);
    await e.sendToken(other.address, "transferWithAuthorization", tokenTransferArgs(a.payment, e.escrow, a.signature));
    await e.sendToken(other.address, "transferWithAuthorization", tokenTransferArgs(b.payment, e.escrow, b.signature));
    await pay(a.payment, a.signature);
    await pay(b.payment, b.signature);
    expect(await e.credits(owner.address)).toBe(2n * PRICE);
    expect(await e.balanceOf(e.escrow)).toBe(await e.totalOwed());
    const c = await sign(payer);
    await e.sendToken(other.address, "cancelAuthorization", await signCancel(chain.publicClient, e.token, payer, c.payment.nonce));
    await expectRevert(pay(c.payment, c.signature), "AuthorizationUsed", [payer.address, c.payment.nonce]);
    expect(await e.credits(owner.address)).toBe(2n * PRICE);
  });

  it("a cancelled authorization reverts AuthorizationUsed and credits nothing", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    await e.sendToken(other.address, "cancelAuthorization", await signCancel(chain.publicClient, e.token, payer, payment.nonce));
    const before = await snapshotMoney(payer.address);
    await expectRevert(pay(payment, signature), "AuthorizationUsed", [payer.address, payment.nonce]);
    expect(await snapshotMoney(payer.address)).toEqual(before);
    expect(await paid(payment)).toBe(false);
  });

  it("an expired or not yet valid authorization reverts with the token's ERC3009InvalidAuthorizationTime", async () => {
    const payer = await newPayer();
    const now = await chain.now();
    const expired = await sign(payer, { validAfter: 0n, validBefore: now });
    await expectRevert(pay(expired.payment, expired.signature), "ERC3009InvalidAuthorizationTime", [0n, now]);
    const early = await sign(payer, { validAfter: now + 3_600n, validBefore: now + 7_200n });
    await expectRevert(pay(early.payment, early.signature), "ERC3009InvalidAuthorizationTime");
    expect(await paid(expired.payment)).toBe(false);
    expect(await e.totalOwed()).toBe(0n);
  });

  it("an underfunded payer: the token's ERC20InsufficientBalance, nothing credited", async () => {
    const payer = await newPayer(PRICE); // the fee short
    const { payment, signature } = await sign(payer);
    await expectRevert(pay(payment, signature), "ERC20InsufficientBalance", [payer.address, PRICE, PRICE + FEE]);
    expect(await e.totalOwed()).toBe(0n);
    expect(await paid(payment)).toBe(false);
  });

  it("a signature over other terms (a higher price than signed, another payee) is the token's ERC3009InvalidSignature", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    await expectRevert(pay({ ...payment, price: PRICE * 2n }, signature), "ERC3009InvalidSignature");
    const toSomeoneElse = await sign(payer, { value: PRICE + FEE });
    const byStranger = await authorize(chain.publicClient, e, privateKeyToAccount(generatePrivateKey()), {
      owner: owner.address,
      price: PRICE,
      fee: FEE,
      nonce: toSomeoneElse.payment.nonce,
    });
    await expectRevert(pay(toSomeoneElse.payment, byStranger.signature), "ERC3009InvalidSignature");
    await expectRevert(pay(payment, `${signature}00`), "InvalidSignature");
  });

  it("only the operator: anyone else is refused, the payer and the owner too", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    for (const from of [other.address, owner.address, admin.address]) {
      await expectRevert(pay(payment, signature, from), "AccessControlUnauthorizedAccount", [from, ROLE.operator]);
    }
    expect(await paid(payment)).toBe(false);
  });

  it("refuses zero amounts and a zero owner, and refuses while paused", async () => {
    const payer = await newPayer();
    const zero = await sign(payer, { price: 0n, fee: 0n });
    await expectRevert(pay(zero.payment, zero.signature), "ZeroAmount");
    const noOwner = await sign(payer, { owner: "0x0000000000000000000000000000000000000000" });
    await expectRevert(pay(noOwner.payment, noOwner.signature), "ZeroAddress");
    const { payment, signature } = await sign(payer);
    await e.send(operator.address, "pause");
    await expectRevert(pay(payment, signature), "EnforcedPause");
    await e.send(admin.address, "unpause");
    await pay(payment, signature);
  });

  it("a v of 0/1 (some signers) is accepted as 27/28", async () => {
    const payer = await newPayer();
    const { payment, signature } = await sign(payer);
    const v = Number.parseInt(signature.slice(130), 16);
    await pay(payment, `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, "0")}` as Hex);
    expect(await paid(payment)).toBe(true);
  });
});
