// Random sequences of escrow operations (on the blacklisting token, so credits happen too; rentals
// settled by availability by the operator, one at a time or in batches, or released by anyone after
// the grace; disputes accepted, refunded in full or in part, rejected, or settled after the timeout)
// checked against a model after every step: the escrow's balance equals totalOwed, and every
// participant's balance and credits are exactly what the model says, so no rental is ever
// paid twice or paid to the wrong party.
import fc from "fast-check";
import { type Address, encodeAbiParameters, type Hex, keccak256, maxUint256 } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startChain } from "./anvil";
import {
  admin,
  arbiter,
  deployEscrow,
  type Escrow,
  escrowId,
  FEE,
  operator,
  other,
  owner,
  owner2,
  renter,
  renter2,
  revertOf,
  Status,
  treasury,
} from "./escrow";

const RENTERS = [renter.address, renter2.address];
const OWNERS = [owner.address, owner2.address];
const PAYEES = [...RENTERS, ...OWNERS, treasury.address];

// disputedAt: when its one dispute was opened (null: never).
type ModelRental = { id: Hex; renter: Address; owner: Address; price: bigint; endsAt: bigint; status: number; disputedAt: bigint | null };

const DISPUTE_TIMEOUT = 14n * 86_400n;
const SETTLE_GRACE = 86_400n;
type Model = {
  rentals: ModelRental[];
  balances: Map<Address, bigint>;
  credits: Map<Address, bigint>;
  blacklisted: Set<Address>;
  paused: boolean;
};

let chain: Awaited<ReturnType<typeof startChain>>;
let e: Escrow;

beforeAll(async () => {
  chain = await startChain();
  e = await deployEscrow(chain, "BlacklistToken");
  for (const who of RENTERS) {
    await e.sendToken(admin.address, "mint", [who, 10n ** 15n]);
    await e.sendToken(who, "approve", [e.escrow, maxUint256]);
  }
});
afterAll(() => chain?.stop());

// --- model helpers -----------------------------------------------------------------------------

const add = (map: Map<Address, bigint>, who: Address, amount: bigint) => map.set(who, (map.get(who) ?? 0n) + amount);

/** What the contract does with a payout: transfer it, or credit it if the payee is blacklisted. */
function pay(m: Model, who: Address, amount: bigint) {
  add(m.blacklisted.has(who) ? m.credits : m.balances, who, amount);
}

function releaseInModel(m: Model, r: ModelRental, payTreasury = true) {
  r.status = Status.Released;
  pay(m, r.owner, r.price);
  if (payTreasury) pay(m, treasury.address, FEE);
}

/** Settlement by availability: `refund` to the renter, the rest of the price to the owner (each only when not 0). */
function settleInModel(m: Model, r: ModelRental, refund: bigint, payTreasury = true) {
  r.status = Status.Released;
  if (refund > 0n) pay(m, r.renter, refund);
  if (refund < r.price) pay(m, r.owner, r.price - refund);
  if (payTreasury) pay(m, treasury.address, FEE);
}

// The operator's refund: none, a quarter (15 of 60 minutes down), the whole price, or one too many.
const refundKinds = ["none", "quarter", "full", "above"] as const;
type RefundKind = (typeof refundKinds)[number];
const refundOf = (r: ModelRental | undefined, kind: RefundKind) =>
  !r ? 0n : kind === "none" ? 0n : kind === "quarter" ? r.price / 4n : kind === "full" ? r.price : r.price + 1n;
const slaHash = (r: ModelRental | undefined, refund: bigint) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [r?.id ?? unknownId, refund]));

/** block.timestamp of the next transaction: the chain mines each block one second after the last. */
const nextTimestamp = async () => (await chain.now()) + 1n;
const pick = (m: Model, index: number) => (m.rentals.length === 0 ? undefined : m.rentals[index % m.rentals.length]);
const unknownId = escrowId("unknown");

async function expectRevertNamed(call: Promise<unknown>, name?: string) {
  const error = await revertOf(call);
  if (name) expect(error.name).toBe(name);
}

async function checkInvariants(m: Model, touched: ModelRental[]) {
  const [escrowBalance, totalOwed] = await Promise.all([e.balanceOf(e.escrow), e.totalOwed()]);
  expect(escrowBalance).toBe(totalOwed);
  const escrowed = m.rentals
    .filter((r) => r.status === Status.Active || r.status === Status.Disputed)
    .reduce((sum, r) => sum + r.price + FEE, 0n);
  const credited = [...m.credits.values()].reduce((sum, amount) => sum + amount, 0n);
  expect(totalOwed).toBe(escrowed + credited);
  for (const who of PAYEES) {
    const [balance, credits] = await Promise.all([e.balanceOf(who), e.credits(who)]);
    const expected = { who, balance: m.balances.get(who) ?? 0n, credits: m.credits.get(who) ?? 0n };
    expect({ who, balance, credits }).toEqual(expected);
  }
  for (const r of touched) expect((await e.rental(r.id)).status).toBe(r.status);
}

// --- commands --------------------------------------------------------------------------------

type Step = (m: Model) => Promise<ModelRental[]>; // returns the rentals it touched
class Command implements fc.AsyncCommand<Model, object> {
  constructor(
    private readonly label: string,
    private readonly step: Step,
  ) {}
  check = () => true; // every command applies in every state; it predicts success or revert itself
  async run(m: Model) {
    await checkInvariants(m, await this.step(m));
  }
  toString = () => this.label;
}

const createArgs = fc.record({
  renter: fc.nat(RENTERS.length - 1),
  owner: fc.nat(OWNERS.length - 1),
  price: fc.bigInt(1n, 1_000_000_000n),
  duration: fc.constantFrom(60n, 600n, 3_600n),
  // Now and then, a quote for an id that is already taken.
  reuse: fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, { arbitrary: fc.nat(), weight: 1 }),
});

const create = createArgs.map(
  (a) =>
    new Command(`create(${a.renter}, ${a.owner}, ${a.price}, ${a.duration}, reuse=${a.reuse})`, async (m) => {
      const existing = a.reuse === null ? undefined : pick(m, a.reuse);
      const serial = String(m.rentals.length).padStart(12, "0");
      const id = existing?.id ?? escrowId(`rental ${serial}`);
      const q = await e.quote({
        rentalId: id,
        renter: RENTERS[a.renter],
        owner: OWNERS[a.owner],
        price: a.price,
        duration: a.duration,
      });
      const call = e.send(q.renter, "createRental", [q, await e.signQuote(q)]);
      if (m.paused) return expectRevertNamed(call, "EnforcedPause").then(() => []);
      if (existing) return expectRevertNamed(call, "RentalExists").then(() => []);
      if (m.blacklisted.has(q.renter)) return expectRevertNamed(call).then(() => []); // the token refuses
      const endsAt = (await nextTimestamp()) + q.duration;
      await call;
      const rental = { id, renter: q.renter, owner: q.owner, price: q.price, endsAt, status: Status.Active, disputedAt: null };
      m.rentals.push(rental);
      add(m.balances, q.renter, -(q.price + FEE));
      return [rental];
    }),
);

const release = fc.nat().map(
  (index) =>
    new Command(`release(${index})`, async (m) => {
      const r = pick(m, index);
      const call = e.send(other.address, "release", [r?.id ?? unknownId]);
      if (!r || r.status !== Status.Active) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      const ts = await nextTimestamp();
      if (ts < r.endsAt) return expectRevertNamed(call, "NotEnded").then(() => []);
      if (ts < r.endsAt + SETTLE_GRACE) return expectRevertNamed(call, "SettlementPending").then(() => []);
      await call;
      releaseInModel(m, r);
      return [r];
    }),
);

const settle = fc.record({ index: fc.nat(), refund: fc.constantFrom(...refundKinds), byOperator: fc.boolean() }).map(
  ({ index, refund: kind, byOperator }) =>
    new Command(`settle(${index}, ${kind}, byOperator=${byOperator})`, async (m) => {
      const r = pick(m, index);
      const refund = refundOf(r, kind);
      const call = e.send(byOperator ? operator.address : other.address, "settle", [r?.id ?? unknownId, refund, slaHash(r, refund)]);
      if (!byOperator) return expectRevertNamed(call, "AccessControlUnauthorizedAccount").then(() => []);
      if (!r || r.status !== Status.Active) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      if ((await nextTimestamp()) < r.endsAt) return expectRevertNamed(call, "NotEnded").then(() => []);
      if (refund > r.price) return expectRevertNamed(call, "RefundAbovePrice").then(() => []);
      await call;
      settleInModel(m, r, refund);
      return [r];
    }),
);

const settleMany = fc
  .array(fc.record({ index: fc.option(fc.nat(), { freq: 6 }), refund: fc.constantFrom(...refundKinds) }), { maxLength: 6 })
  .map(
    (items) =>
      new Command(`settleMany(${JSON.stringify(items)})`, async (m) => {
        const targets = items.map(({ index, refund }) => {
          const r = index === null ? undefined : pick(m, index);
          return { r, refund: refundOf(r, refund) };
        });
        const ts = await nextTimestamp();
        const settlements = targets.map(({ r, refund }) => ({ id: r?.id ?? unknownId, refund, slaHash: slaHash(r, refund) }));
        await e.send(operator.address, "settleMany", [settlements]);
        let fees = 0n;
        for (const { r, refund } of targets) {
          if (!r || r.status !== Status.Active || ts < r.endsAt || refund > r.price) continue;
          settleInModel(m, r, refund, false);
          fees += FEE;
        }
        if (fees > 0n) pay(m, treasury.address, fees);
        return targets.flatMap(({ r }) => (r ? [r] : []));
      }),
  );

const releaseMany = fc.array(fc.option(fc.nat(), { freq: 6 }), { maxLength: 6 }).map(
  (indices) =>
    new Command(`releaseMany(${JSON.stringify(indices)})`, async (m) => {
      const targets = indices.map((index) => (index === null ? undefined : pick(m, index)));
      const ts = await nextTimestamp();
      await e.send(other.address, "releaseMany", [targets.map((r) => r?.id ?? unknownId)]);
      let fees = 0n;
      for (const r of targets) {
        if (!r || r.status !== Status.Active || ts < r.endsAt + SETTLE_GRACE) continue;
        releaseInModel(m, r, false);
        fees += FEE;
      }
      if (fees > 0n) pay(m, treasury.address, fees);
      return targets.filter((r) => r !== undefined);
    }),
);

const openDispute = fc.record({ index: fc.nat(), byRenter: fc.boolean() }).map(
  ({ index, byRenter }) =>
    new Command(`openDispute(${index}, byRenter=${byRenter})`, async (m) => {
      const r = pick(m, index);
      if (!r) return [];
      const call = e.send(byRenter ? r.renter : other.address, "openDispute", [r.id]);
      if (r.status !== Status.Active) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      if (!byRenter) return expectRevertNamed(call, "SenderNotRenter").then(() => []);
      const ts = await nextTimestamp();
      if (ts >= r.endsAt) return expectRevertNamed(call, "RentalEnded").then(() => []);
      if (r.disputedAt !== null) return expectRevertNamed(call, "AlreadyDisputed").then(() => []);
      await call;
      r.status = Status.Disputed;
      r.disputedAt = ts;
      return [r];
    }),
);

function refundInModel(m: Model, r: ModelRental) {
  r.status = Status.Refunded;
  pay(m, r.renter, r.price + FEE);
}

// The arbiter's three outcomes: a full refund, a split (a third back), a rejection.
const resolveDispute = fc.record({ index: fc.nat(), outcome: fc.constantFrom("full", "part", "none") }).map(
  ({ index, outcome }) =>
    new Command(`resolveDispute(${index}, ${outcome})`, async (m) => {
      const r = pick(m, index);
      if (!r) return [];
      const refund = outcome === "full" ? r.price : outcome === "part" ? r.price / 3n : 0n;
      const call = e.send(arbiter.address, "resolveDispute", [r.id, refund]);
      if (r.status !== Status.Disputed) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      const ts = await nextTimestamp();
      await call;
      if (refund === r.price) refundInModel(m, r);
      else if (refund > 0n) {
        r.status = Status.Released;
        pay(m, r.renter, refund);
        pay(m, r.owner, r.price - refund);
        pay(m, treasury.address, FEE);
      } else if (ts < r.endsAt) r.status = Status.Active;
      else releaseInModel(m, r);
      return [r];
    }),
);

const acceptDispute = fc.record({ index: fc.nat(), byOwner: fc.boolean() }).map(
  ({ index, byOwner }) =>
    new Command(`acceptDispute(${index}, byOwner=${byOwner})`, async (m) => {
      const r = pick(m, index);
      if (!r) return [];
      const call = e.send(byOwner ? r.owner : other.address, "acceptDispute", [r.id]);
      if (r.status !== Status.Disputed) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      if (!byOwner) return expectRevertNamed(call, "SenderNotOwner").then(() => []);
      await call;
      refundInModel(m, r);
      return [r];
    }),
);

const settleExpiredDispute = fc.nat().map(
  (index) =>
    new Command(`settleExpiredDispute(${index})`, async (m) => {
      const r = pick(m, index);
      if (!r) return [];
      const call = e.send(other.address, "settleExpiredDispute", [r.id]);
      if (r.status !== Status.Disputed) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      if ((await nextTimestamp()) < (r.disputedAt ?? 0n) + DISPUTE_TIMEOUT)
        return expectRevertNamed(call, "DisputeNotExpired").then(() => []);
      await call;
      refundInModel(m, r);
      return [r];
    }),
);

const cancel = fc.nat().map(
  (index) =>
    new Command(`cancel(${index})`, async (m) => {
      const r = pick(m, index);
      if (!r) return [];
      const call = e.send(operator.address, "cancel", [r.id]);
      if (r.status !== Status.Active) return expectRevertNamed(call, "InvalidStatus").then(() => []);
      await call;
      refundInModel(m, r);
      return [r];
    }),
);

const withdraw = fc.nat(PAYEES.length - 1).map(
  (index) =>
    new Command(`withdraw(${index})`, async (m) => {
      const who = PAYEES[index];
      const amount = m.credits.get(who) ?? 0n;
      const call = e.send(who, "withdraw");
      if (amount === 0n) return expectRevertNamed(call, "NothingToWithdraw").then(() => []);
      if (m.blacklisted.has(who)) return expectRevertNamed(call).then(() => []);
      await call;
      m.credits.delete(who);
      add(m.balances, who, amount);
      return [];
    }),
);

// Now and then past SETTLE_GRACE, so anyone may release, or DISPUTE_TIMEOUT, so undecided disputes
// can be settled.
const travel = fc.constantFrom(30, 600, 3_600, 86_400, 14 * 86_400).map(
  (seconds) =>
    new Command(`travel(${seconds})`, async () => {
      await chain.increaseTime(seconds);
      return [];
    }),
);

const blacklist = fc.record({ index: fc.nat(PAYEES.length - 1), on: fc.boolean() }).map(
  ({ index, on }) =>
    new Command(`blacklist(${index}, ${on})`, async (m) => {
      await e.sendToken(admin.address, "setBlacklisted", [PAYEES[index], on]);
      if (on) m.blacklisted.add(PAYEES[index]);
      else m.blacklisted.delete(PAYEES[index]);
      return [];
    }),
);

const pause = fc.boolean().map(
  (on) =>
    new Command(on ? "pause" : "unpause", async (m) => {
      if (on === m.paused) return [];
      await e.send(on ? operator.address : admin.address, on ? "pause" : "unpause");
      m.paused = on;
      return [];
    }),
);

it("keeps balance == totalOwed and pays every rental exactly once", async () => {
  await fc.assert(
    fc.asyncProperty(
      // Weighted towards creating rentals and letting them end, so settlement paths are reached.
      fc.array(
        fc.oneof(
          { arbitrary: create, weight: 4 },
          { arbitrary: travel, weight: 2 },
          { arbitrary: release, weight: 2 },
          { arbitrary: releaseMany, weight: 2 },
          { arbitrary: settle, weight: 2 },
          { arbitrary: settleMany, weight: 2 },
          { arbitrary: openDispute, weight: 2 },
          { arbitrary: resolveDispute, weight: 2 },
          { arbitrary: acceptDispute, weight: 1 },
          { arbitrary: settleExpiredDispute, weight: 1 },
          { arbitrary: cancel, weight: 1 },
          { arbitrary: withdraw, weight: 2 },
          { arbitrary: blacklist, weight: 2 },
          { arbitrary: pause, weight: 1 },
        ),
        { minLength: 10, maxLength: 25 },
      ),
      // Each run starts from the same chain state: the snapshot is reverted afterwards.
      (commands) =>
        chain.isolated(async () => {
          const balances = new Map<Address, bigint>();
          for (const who of PAYEES) balances.set(who, await e.balanceOf(who));
          const model: Model = { rentals: [], balances, credits: new Map(), blacklisted: new Set(), paused: false };
          await fc.asyncModelRun(() => ({ model, real: {} }), commands);
        }),
    ),
    { numRuns: 30 },
  );
});
