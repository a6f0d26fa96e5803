// `npm run bench:gas`: gas used by each RentalEscrow call on a local anvil chain, beside the
// goals. Measures the steady state (escrow, renter, owner and treasury already hold USDC;
// exact approvals), plus an owner's very first payout, which pays for a fresh balance slot.
// Prints only; asserts nothing. Records settle_gas_per_rental (settleMany's gas per rental at 20)
// and pay_for_message_gas (a paid answer's payForMessage, steady state) for the BENCH_JSON line
// (bench/figures.ts) and prints that line.
import { type Address, getAddress, keccak256, toHex } from "viem";
import { startChain } from "../test/chain/anvil";
import { admin, arbiter, deployEscrow, type Escrow, operator, other, owner, type Quote, renter } from "../test/chain/escrow";
import { authorize, tokenTransferArgs } from "../test/chain/message-payments";
import { benchJsonLine, recordFigures } from "./figures";

// After a rental's end only the operator may settle it for this long; then anyone may release it.
const SETTLE_GRACE = 86_400;
// A down-minute list's hash, as the service records it (any 32 non-zero bytes cost the same).
const slaHash = (label: string) => keccak256(toHex(`down minutes of ${label}`));

const chain = await startChain();
const rows: [string, bigint, string][] = [];
const record = (name: string, gas: bigint, goal = "") => rows.push([name, gas, goal]);

try {
  const e = await deployEscrow(chain, "TestUSDC");
  const fund = (who: Address, amount: bigint) => e.sendToken(admin.address, "mint", [who, amount]);
  await fund(renter.address, 10_000_000_000n);
  await fund(owner.address, 1n);

  async function newRental(overrides: Partial<Quote> = {}) {
    const q = await e.quote(overrides);
    await e.sendToken(q.renter, "approve", [e.escrow, q.price + q.fee]);
    const receipt = await e.send(q.renter, "createRental", [q, await e.signQuote(q)]);
    return { q, gas: receipt.gasUsed };
  }

  // Steady state: the treasury has been paid before, and the escrow never empties (an emptied
  // balance or totalOwed would earn storage refunds that flatter the figures).
  const warmUp = await newRental();
  await newRental({ duration: 10n ** 9n });
  await chain.increaseTime(3_600);
  await e.send(operator.address, "settle", [warmUp.q.rentalId, 0n, slaHash("warm-up")]);
  record("createRental", (await newRental()).gas, "≤ 110,000");

  const permitQuote = await e.quote();
  const permit = await e.signPermit(permitQuote, (await chain.now()) + 600n);
  const withPermit = await e.send(renter.address, "createRentalWithPermit", [
    permitQuote,
    await e.signQuote(permitQuote),
    (await chain.now()) + 600n,
    permit.v,
    permit.r,
    permit.s,
  ]);
  record("createRentalWithPermit", withPermit.gasUsed);

  // Extension of a running rental (issue 29): permit + extend in the renter's one transaction.
  const extension = await e.extension(permitQuote.rentalId);
  const extendPermit = await e.signPermit(
    { renter: renter.address, price: extension.addedPrice, fee: extension.fee },
    (await chain.now()) + 600n,
  );
  const extended = await e.send(renter.address, "extendRentalWithPermit", [
    extension,
    await e.signExtension(extension),
    (await chain.now()) + 600n,
    extendPermit.v,
    extendPermit.r,
    extendPermit.s,
  ]);
  record("extendRentalWithPermit", extended.gasUsed);

  // Settlement by availability: the operator, right after the end.
  const fullService = await newRental();
  const someDown = await newRental();
  await chain.increaseTime(3_600);
  const settleFull = (await e.send(operator.address, "settle", [fullService.q.rentalId, 0n, slaHash("full")])).gasUsed;
  const refund = someDown.q.price / 4n; // 15 of 60 minutes down
  const settlePart = (await e.send(operator.address, "settle", [someDown.q.rentalId, refund, slaHash("part")])).gasUsed;

  // Release: anyone, once SETTLE_GRACE has passed since the end.
  const toRelease = await newRental();
  const freshOwner = await newRental({ owner: address("fresh owner") });
  await chain.increaseTime(3_600 + SETTLE_GRACE);
  const release = (await e.send(renter.address, "release", [toRelease.q.rentalId])).gasUsed;
  record("release (after the grace)", release, "≤ 70,000");
  record("release (owner's first USDC)", (await e.send(renter.address, "release", [freshOwner.q.rentalId])).gasUsed);
  record("settle (refund 0)", settleFull, `≤ release + 10,000 (${(release + 10_000n).toLocaleString("en-US")})`);
  record("settle (refund > 0)", settlePart);

  // Batches of 20, each rental's owner already holding USDC.
  async function batchOf20(label: string): Promise<Quote[]> {
    const quotes: Quote[] = [];
    for (let i = 0; i < 20; i++) {
      const payee = address(`${label} owner ${i}`);
      await fund(payee, 1n);
      quotes.push((await newRental({ owner: payee })).q);
    }
    return quotes;
  }
  const toReleaseMany = await batchOf20("release");
  await chain.increaseTime(3_600 + SETTLE_GRACE);
  const many = await e.send(renter.address, "releaseMany", [toReleaseMany.map((q) => q.rentalId)]);
  const releaseManyPerRental = many.gasUsed / 20n;
  record("releaseMany, per rental at 20 (after the grace)", releaseManyPerRental, "≤ 45,000");

  const toSettle = await batchOf20("settle");
  const toSettleWithRefunds = await batchOf20("settle with refunds");
  await chain.increaseTime(3_600);
  const settlements = (quotes: Quote[], refundOf: (q: Quote) => bigint) =>
    quotes.map((q, i) => ({ id: q.rentalId, refund: refundOf(q), slaHash: slaHash(`batch ${i} ${q.rentalId}`) }));
  const settleMany = await e.send(operator.address, "settleMany", [settlements(toSettle, () => 0n)]);
  const settleManyPerRental = settleMany.gasUsed / 20n;
  const goal = `≤ releaseMany + 5,000 (${(releaseManyPerRental + 5_000n).toLocaleString("en-US")})`;
  record("settleMany, per rental at 20 (refunds 0)", settleManyPerRental, goal);
  const withRefunds = await e.send(operator.address, "settleMany", [settlements(toSettleWithRefunds, (q) => q.price / 4n)]);
  record("settleMany, per rental at 20 (refunds > 0)", withRefunds.gasUsed / 20n);
  recordFigures({ settle_gas_per_rental: Number(settleManyPerRental) });

  const disputed = await newRental();
  record("openDispute", (await e.send(renter.address, "openDispute", [disputed.q.rentalId])).gasUsed);
  record(
    "resolveDispute (full refund)",
    (await e.send(arbiter.address, "resolveDispute", [disputed.q.rentalId, disputed.q.price])).gasUsed,
  );
  const split = await newRental();
  await e.send(renter.address, "openDispute", [split.q.rentalId]);
  const part = split.q.price / 3n;
  record("resolveDispute (partial refund)", (await e.send(arbiter.address, "resolveDispute", [split.q.rentalId, part])).gasUsed);
  const rejected = await newRental();
  await e.send(renter.address, "openDispute", [rejected.q.rentalId]);
  record("resolveDispute (rejected, runs on)", (await e.send(arbiter.address, "resolveDispute", [rejected.q.rentalId, 0n])).gasUsed);
  const accepted = await newRental();
  await e.send(renter.address, "openDispute", [accepted.q.rentalId]);
  record("acceptDispute (owner)", (await e.send(accepted.q.owner, "acceptDispute", [accepted.q.rentalId])).gasUsed);
  const expired = await newRental();
  await e.send(renter.address, "openDispute", [expired.q.rentalId]);
  await chain.increaseTime(14 * 86_400);
  record("settleExpiredDispute", (await e.send(renter.address, "settleExpiredDispute", [expired.q.rentalId])).gasUsed);
  const cancelled = await newRental();
  record("cancel", (await e.send(operator.address, "cancel", [cancelled.q.rentalId])).gasUsed);

  // Pay per answer: the operator redeems the payer's EIP-3009 authorization (0.05 USDC + 0.005 fee).
  // Steady state: the owner and the treasury hold credits already, the payer USDC.
  const payForMessage = async (payee: Address, frontRun = false) => {
    const { payment, signature } = await authorize(chain.publicClient, e, renter, { owner: payee, price: 50_000n, fee: 5_000n });
    if (frontRun) await e.sendToken(other.address, "transferWithAuthorization", tokenTransferArgs(payment, e.escrow, signature));
    return (await e.send(operator.address, "payForMessage", [payment, signature])).gasUsed;
  };
  await payForMessage(owner.address);
  const paidAnswer = await payForMessage(owner.address);
  record("payForMessage", paidAnswer);
  record("payForMessage (owner's first credit)", await payForMessage(address("fresh answer owner")));
  record("payForMessage (front-run: credited from the escrow's balance)", await payForMessage(owner.address, true));
  recordFigures({ pay_for_message_gas: Number(paidAnswer) });

  record("withdraw (BlacklistToken)", await withdrawGas());
} finally {
  await chain.stop();
}

printTable();
console.log(`\n${benchJsonLine()}`);

// Credits only arise when a push fails, so this one is measured on the blacklisting token.
async function withdrawGas(): Promise<bigint> {
  const b: Escrow = await deployEscrow(chain, "BlacklistToken");
  await b.sendToken(admin.address, "mint", [owner.address, 1n]);
  const q = await b.quote();
  await b.create(q);
  await b.sendToken(admin.address, "setBlacklisted", [owner.address, true]);
  await chain.increaseTime(3_600);
  await b.send(operator.address, "settle", [q.rentalId, 0n, slaHash("withdraw")]);
  await b.sendToken(admin.address, "setBlacklisted", [owner.address, false]);
  return (await b.send(owner.address, "withdraw")).gasUsed;
}

function address(label: string): Address {
  return getAddress(keccak256(toHex(label)).slice(0, 42));
}

function printTable() {
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${"function".padEnd(width)}  ${"gas used".padStart(9)}  goal`);
  for (const [name, gas, goal] of rows) {
    console.log(`${name.padEnd(width)}  ${gas.toLocaleString("en-US").padStart(9)}  ${goal}`);
  }
}
