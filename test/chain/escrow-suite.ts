// The shared frame of the RentalEscrow suites: a private anvil with the escrow deployed once per
// file, every test starting from the same chain state (a snapshot reverted after each), and the
// checks the suites share.
import { encodeAbiParameters, type Hex, keccak256, parseEventLogs, type TransactionReceipt, toHex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { startChain } from "./anvil";
import { deployEscrow, type Escrow, escrowAbi, revertOf } from "./escrow";

export type Chain = Awaited<ReturnType<typeof startChain>>;

/** Registers the file's chain and escrow; their values are set once its beforeAll has run. */
export function escrowSuite(): { chain: Chain; e: Escrow } {
  const state = {} as { chain: Chain; e: Escrow };
  let snapshot: Hex;
  beforeAll(async () => {
    state.chain = await startChain();
    state.e = await deployEscrow(state.chain, "TestUSDC");
  });
  afterAll(() => state.chain?.stop());
  beforeEach(async () => {
    snapshot = await state.chain.testClient.snapshot();
  });
  afterEach(async () => {
    await state.chain.testClient.revert({ id: snapshot });
  });
  return state;
}

export async function expectRevert(call: Promise<unknown>, name: string, args?: readonly unknown[]) {
  const error = await revertOf(call);
  expect(error.name).toBe(name);
  if (args) expect(error.args).toEqual(args);
}

/** The names of the escrow's events in the receipt, in log order. */
export function eventNames(receipt: TransactionReceipt): string[] {
  return parseEventLogs({ abi: escrowAbi, logs: receipt.logs }).map((log) => log.eventName);
}

export function events(receipt: TransactionReceipt, eventName: string) {
  return parseEventLogs({ abi: escrowAbi, logs: receipt.logs })
    .filter((log) => log.eventName === eventName)
    .map((log) => log.args);
}

/** The escrow holds exactly what it owes: escrowed rentals plus credits. */
export async function expectSolvent(x: Escrow) {
  expect(await x.balanceOf(x.escrow)).toBe(await x.totalOwed());
}

/** Creates a rental and moves the clock to its end: the operator may settle it. */
export async function endedRental(chain: Chain, x: Escrow, overrides = {}) {
  const q = await x.quote(overrides);
  await x.create(q);
  await chain.increaseTime(q.duration);
  return q;
}

/** After a rental's end only the operator may pay it out (settle) for this long (the contract's SETTLE_GRACE). */
export const SETTLE_GRACE = 86_400n;

/** Creates a rental and moves the clock SETTLE_GRACE past its end: anyone may release it. */
export async function releasableRental(chain: Chain, x: Escrow, overrides = {}) {
  const q = await x.quote(overrides);
  await x.create(q);
  await chain.increaseTime(q.duration + SETTLE_GRACE);
  return q;
}

/** A down-minute list's hash as the service records it: keccak256 of the ABI-encoded uint64[] of
 * each down minute's start (unix seconds, ascending). The contract only stores what it is given. */
export function slaHash(downMinuteStarts: readonly bigint[] = []): Hex {
  return keccak256(encodeAbiParameters([{ type: "uint64[]" }], [downMinuteStarts]));
}

export const ROLE = {
  signer: keccak256(toHex("QUOTE_SIGNER_ROLE")),
  operator: keccak256(toHex("OPERATOR_ROLE")),
  arbiter: keccak256(toHex("ARBITER_ROLE")),
  admin: `0x${"0".repeat(64)}` as Hex,
};
