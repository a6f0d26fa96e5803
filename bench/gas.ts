// `npm run bench:gas`: gas used by each RentalEscrow call on a local anvil chain, beside the
// goals. Measures the steady state (escrow, renter, owner and treasury already hold USDC;
// exact approvals), plus an owner's very first payout, which pays for a fresh balance slot.
// Prints only; asserts nothing.
import { type Address, getAddress, type Hex, keccak256, toHex } from "viem";
import { startChain } from "../test/chain/anvil";
import { admin, arbiter, deployEscrow, type Escrow, operator, owner, type Quote, renter } from "../test/chain/escrow";

const chain = await startChain();
const rows: [string, bigint, string][] = [];
const record = (name: string, gas: bigint, goal = "") => rows.push([name, gas, goal]);

try {
  const e = await deployEscrow(chain, "TestUSDC");
  const fund = (who: Address, amount: bigint) => e.sendToken(admin.address, "mint", [who, amount]);
  await fund(renter.address, 1_000_000_000n);
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
  await e.send(renter.address, "release", [warmUp.q.rentalId]);
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

  const toRelease = await newRental();
  const freshOwner = await newRental({ owner: address("fresh owner") });
  await chain.increaseTime(3_600);
  record("release", (await e.send(renter.address, "release", [toRelease.q.rentalId])).gasUsed, "≤ 70,000");
  record("release (owner's first USDC)", (await e.send(renter.address, "release", [freshOwner.q.rentalId])).gasUsed);

  const batch: Hex[] = [];
  for (let i = 0; i < 20; i++) {
    const payee = address(`owner ${i}`);
    await fund(payee, 1n);
    batch.push((await newRental({ owner: payee })).q.rentalId);
  }
  await chain.increaseTime(3_600);
  const many = await e.send(renter.address, "releaseMany", [batch]);
  record("releaseMany, per rental at 20", many.gasUsed / 20n, "≤ 45,000");

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

  record("withdraw (BlacklistToken)", await withdrawGas());
} finally {
  await chain.stop();
}

printTable();

// Credits only arise when a push fails, so this one is measured on the blacklisting token.
async function withdrawGas(): Promise<bigint> {
  const b: Escrow = await deployEscrow(chain, "BlacklistToken");
  await b.sendToken(admin.address, "mint", [owner.address, 1n]);
  const q = await b.quote();
  await b.create(q);
  await b.sendToken(admin.address, "setBlacklisted", [owner.address, true]);
  await chain.increaseTime(3_600);
  await b.send(renter.address, "release", [q.rentalId]);
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
