// Extending a running rental (issue 29, docs/extend.md) against a real chain (anvil) and the real
// database: the quote (HTTP, by the rental code) → permit + extendRentalWithPermit in one
// transaction → confirm; exactly once whatever the retries and the event reader; the owner's
// signed rental.extended call; the refusals; switching up (an hour rental extended by a day).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as extendConfirmPost } from "@/app/api/checkout/extend-confirm/route";
import { POST as extendQuotePost } from "@/app/api/checkout/extend-quote/route";
import { GET as statusGet } from "@/app/api/v1/status/route";
import { listAgentDeliveries } from "@/lib/agents/list-agent-deliveries";
import { checkoutWithKey } from "@/lib/chain/checkout-with-key";
import { extendWithKey } from "@/lib/chain/extend-with-key";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { renterRequest } from "@/test/api-requests";
import { startWebhook, uniqueIp } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { tsNodeArgs } from "../../scripts/node-args";
import {
  escrowAbi,
  FEE,
  makePayableAgent,
  newRenter,
  type Payments,
  type Renter,
  signPermit,
  startPayments,
  USDC,
} from "./payments-harness";

// The event reader works through every escrow event of its database: this file keeps its own.
isolateDatabase("payments_extend");
const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");

const HOUR = 3_600;
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

let p: Payments;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  p = await startPayments();
  hook = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
});
afterAll(async () => {
  await hook?.close();
  await p?.stop();
});

const extendQuote = (code: string, body: unknown) =>
  extendQuotePost(
    new Request("http://localhost/api/checkout/extend-quote", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp(), "x-api-key": code },
      body: JSON.stringify(body),
    }),
  );
const extendConfirm = (txHash: string) =>
  extendConfirmPost(
    new Request("http://localhost/api/checkout/extend-confirm", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
      body: JSON.stringify({ txHash }),
    }),
  );

/** A paid, active hour rental (2 USDC + 1 USDC fee) of an agent whose webhook is `hook`. */
async function hourRental(listing = {}) {
  const renter = await newRenter(p);
  const { agent } = await makePayableAgent({ webhook: hook.url, signingSecret: SECRET, listing });
  const rental = await checkoutWithKey({ agentId: agent.id, durationType: "hour", channel: "API", renterKey: renter.key });
  return { renter, agent, rental };
}

type QuoteBody = {
  extension: { rentalId: Hex; renter: Hex; addedPrice: string; fee: string; addedSeconds: string; endsAt: string; deadline: string };
  signature: Hex;
};

/** What the extend page's wallet does: one permit signature, one extendRentalWithPermit transaction. */
async function payExtension(renter: Renter, quoted: QuoteBody) {
  const x = quoted.extension;
  const extension = {
    ...x,
    addedPrice: BigInt(x.addedPrice),
    fee: BigInt(x.fee),
    addedSeconds: BigInt(x.addedSeconds),
    endsAt: BigInt(x.endsAt),
    deadline: BigInt(x.deadline),
  };
  const permit = await signPermit(p, renter, extension.addedPrice + extension.fee, extension.deadline);
  const hash = await p.walletClient.writeContract({
    account: renter.account,
    address: p.e.escrow,
    abi: escrowAbi,
    functionName: "extendRentalWithPermit",
    args: [extension, quoted.signature, extension.deadline, permit.v, permit.r, permit.s],
  });
  const receipt = await p.mined(hash);
  expect(receipt.status).toBe("success");
  return hash;
}

describe("extend by the code: quote → one transaction → confirm", () => {
  it("moves ends_at by an hour, adds the price and one fee, keeps code and sessionKey, tells the owner once", async () => {
    await syncEscrowEvents(); // catch up with the checkout
    const { renter, rental } = await hourRental();
    const before = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    const balanceBefore = await p.e.balanceOf(renter.address);
    const escrowBefore = await p.e.balanceOf(p.e.escrow);

    const res = await extendQuote(rental.code, { periods: 1 });
    expect(res.status).toBe(201);
    const quoted = await res.json();
    expect(quoted).toMatchObject({ durationType: "hour", periods: 1, price: 2, fee: 1, total: 3, totalMicro: "3000000" });
    expect(quoted.ends_at).toBe(new Date(before.endsAt.getTime() + HOUR * 1000).toISOString());
    expect(quoted.extension).toMatchObject({
      renter: renter.address,
      addedSeconds: "3600",
      endsAt: String(before.endsAt.getTime() / 1000),
    });

    const nonceBefore = await p.publicClient.getTransactionCount({ address: renter.address });
    const hash = await payExtension(renter, quoted);
    expect(await p.publicClient.getTransactionCount({ address: renter.address })).toBe(nonceBefore + 1);
    expect(balanceBefore - (await p.e.balanceOf(renter.address))).toBe(2n * USDC + FEE);
    expect((await p.e.balanceOf(p.e.escrow)) - escrowBefore).toBe(2n * USDC + FEE);

    const calls = hook.received.length;
    const confirmed = await extendConfirm(hash);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ status: "extended", ends_at: quoted.ends_at, txHash: hash });
    // Retried, and read by the event reader: nothing moves twice.
    expect((await (await extendConfirm(hash)).json()).ends_at).toBe(quoted.ends_at);
    expect(await syncEscrowEvents()).toMatchObject({ extended: 0 });

    const after = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    expect(after.endsAt.toISOString()).toBe(quoted.ends_at);
    expect(after.priceMicro).toBe(4n * USDC);
    expect(after.feeMicro).toBe(2n * FEE);
    expect([after.id, after.sessionKey, after.ref, after.status]).toEqual([before.id, before.sessionKey, before.ref, "active"]);
    expect(await db.rentalExtension.findMany({ where: { rentalId: rental.id }, select: { txHash: true, periods: true } })).toEqual([
      { txHash: hash.toLowerCase(), periods: 1 },
    ]);
    const onChain = await p.e.rental(quoted.extension.rentalId);
    expect(onChain).toMatchObject({ endsAt: Number(quoted.extension.endsAt) + HOUR, price: 4n * USDC, fee: 2n * FEE });

    // The owner's webhook: one signed rental.extended call (not retried).
    await expect.poll(() => hook.received.length - calls).toBeGreaterThanOrEqual(1);
    const extendedCalls = hook.received.slice(calls).filter((r) => r.body.includes("rental.extended"));
    expect(extendedCalls).toHaveLength(1);
    const [call] = extendedCalls;
    expect(JSON.parse(call.body)).toEqual({ type: "rental.extended", rental: { ref: before.ref, ends_at: quoted.ends_at } });
    expect(call.headers["x-rental-ref"]).toBe(before.ref);
    expect(call.headers.authorization).toMatch(/^Bearer /);
    expect(new Webhook(SECRET).verify(call.body, call.headers as Record<string, string>)).toMatchObject({ type: "rental.extended" });
    await expect
      .poll(async () => (await db.rentalExtension.findFirstOrThrow({ where: { rentalId: rental.id } })).notifiedAt)
      .not.toBeNull();
    // The owner's delivery log shows the call and how it was answered.
    expect((await listAgentDeliveries(before.agentId)).filter((d) => d.kind === "rental_event")).toMatchObject([
      { channel: "Rental extended", ok: true, webhookStatus: 200, reason: null },
    ]);

    // The same code reports the new end.
    const status = await statusGet(renterRequest("status", { code: rental.code }));
    expect((await status.json()).rental.ends_at).toBe(quoted.ends_at);
  });

  it("switches up: an hour rental extended by a day; the event reader applies an extension nobody confirmed", async () => {
    await syncEscrowEvents();
    const { renter, rental } = await hourRental();
    const before = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    const quoted = await (await extendQuote(rental.code, { periods: 1, durationType: "day" })).json();
    expect(quoted).toMatchObject({ durationType: "day", price: 10, total: 11 });
    await payExtension(renter, quoted);
    expect(await syncEscrowEvents()).toMatchObject({ extended: 1 });
    const after = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    expect(after.endsAt.getTime() - before.endsAt.getTime()).toBe(86_400_000);
    expect(after.priceMicro).toBe(12n * USDC);
    expect(after.durationType).toBe("hour");
  });

  it("the CLI's path (extendWithKey) extends by 3 periods, and a key that did not pay is refused", async () => {
    const { renter, rental } = await hourRental();
    const other = await newRenter(p);
    await expect(extendWithKey({ rentalId: rental.id, periods: 1, renterKey: other.key })).rejects.toThrow(/extend it with that wallet/);
    const result = await extendWithKey({ rentalId: rental.id, periods: 3, renterKey: renter.key });
    expect(new Date(result.ends_at).getTime() - new Date(rental.ends_at).getTime()).toBe(3 * HOUR * 1000);
  });
});

describe("reorgs", () => {
  it("an extension reorged away deeper than the confirmations is undone: the old end, price and fee again", async () => {
    const confirmations = env.CHAIN_CONFIRMATIONS;
    const { renter, rental } = await hourRental();
    await syncEscrowEvents();
    Object.assign(env, { CHAIN_CONFIRMATIONS: 3 });
    try {
      const before = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
      const quoted = await (await extendQuote(rental.code, { periods: 1 })).json();
      const snapshot = await p.testClient.snapshot();
      await payExtension(renter, quoted);
      await p.testClient.mine({ blocks: 3 });
      expect(await syncEscrowEvents()).toMatchObject({ extended: 1 });
      expect((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).endsAt.toISOString()).toBe(quoted.ends_at);
      const applied = await db.rentalExtension.findFirstOrThrow({ where: { rentalId: rental.id, appliedAt: { not: null } } });

      await p.testClient.revert({ id: snapshot });
      await p.testClient.mine({ blocks: 5 });
      expect((await syncEscrowEvents()).rewoundTo).not.toBeNull();
      const after = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
      expect([after.endsAt, after.priceMicro, after.feeMicro, after.status]).toEqual([
        before.endsAt,
        before.priceMicro,
        before.feeMicro,
        "active",
      ]);
      // Its quote is unredeemed again, as the rental is unextended.
      expect(await db.rentalExtension.findUniqueOrThrow({ where: { id: applied.id } })).toMatchObject({
        appliedAt: null,
        txHash: null,
        notifiedAt: null,
      });
    } finally {
      Object.assign(env, { CHAIN_CONFIRMATIONS: confirmations });
    }
  });
});

describe("the CLI's rental:extend", () => {
  it("pays from RENTER_PRIVATE_KEY in one transaction and prints the new end", async () => {
    const { renter, rental } = await hourRental();
    const settings = {
      DATABASE_URL: env.DATABASE_URL,
      CHAIN_ID: String(env.CHAIN_ID),
      CHAIN_RPC_URL: env.CHAIN_RPC_URL!,
      CHAIN_CONFIRMATIONS: String(env.CHAIN_CONFIRMATIONS),
      USDC_ADDRESS: env.USDC_ADDRESS!,
      ESCROW_ADDRESS: env.ESCROW_ADDRESS!,
      QUOTE_SIGNER_PRIVATE_KEY: env.QUOTE_SIGNER_PRIVATE_KEY!,
      OPERATOR_PRIVATE_KEY: env.OPERATOR_PRIVATE_KEY!,
      RENTER_PRIVATE_KEY: renter.key,
    };
    const args = tsNodeArgs("scripts/cli.ts", ["rental:extend", "--rental", rental.code, "--periods", "2"], { reactServer: true });
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      env: { ...process.env, ...settings },
    });
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ code: rental.code, added: "2 hours", paid_micro_usdc: String(4n * USDC + FEE) });
    expect(new Date(printed.ends_at).getTime() - new Date(rental.ends_at).getTime()).toBe(2 * HOUR * 1000);
    expect((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).endsAt.toISOString()).toBe(printed.ends_at);
  });
});

// Each pays a rental on the chain first: on a 2-core machine busy with other files (the dev-server
// restarts) that took more than the suite's 20 s once; a bound, not a measure of speed.
describe("extension refusals (409 with the reason; nothing stored)", () => {
  it.each([
    ["disputed", { status: "disputed" }, /disputed/],
    ["ended", { endsAt: new Date(Date.now() - 5_000) }, /has ended/],
  ] as const)("a %s rental", async (_case, data, reason) => {
    const { rental } = await hourRental();
    await db.rental.update({ where: { id: rental.id }, data });
    const res = await extendQuote(rental.code, { periods: 1 });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(reason);
    expect(await db.rentalExtension.count({ where: { rentalId: rental.id } })).toBe(0);
  });

  it("an offline listing, a duration no longer sold, a shorter duration", async () => {
    const { rental, agent } = await hourRental();
    await db.agent.update({ where: { id: agent.id }, data: { pricePerDay: null } });
    const noDay = await extendQuote(rental.code, { periods: 1, durationType: "day" });
    expect(noDay.status).toBe(409);
    expect((await noDay.json()).error).toMatch(/no longer rented per day/);
    await db.agent.update({ where: { id: agent.id }, data: { status: "offline" } });
    const offline = await extendQuote(rental.code, { periods: 1 });
    expect(offline.status).toBe(409);
    expect((await offline.json()).error).toMatch(/is offline right now/);

    const day = await db.rental.update({ where: { id: rental.id }, data: { durationType: "day" } });
    const shorter = await extendQuote(day.id.slice(0, 8), { periods: 1, durationType: "hour" });
    expect(shorter.status).toBe(409);
    expect((await shorter.json()).error).toMatch(/day rental is extended by days or longer/);
    expect(await db.rentalExtension.count({ where: { rentalId: rental.id } })).toBe(0);
  });

  it("400 for a bad number of periods, 404 for an unknown code, 401 without one", async () => {
    const { rental } = await hourRental();
    for (const periods of [0, 13, 1.5]) expect((await extendQuote(rental.code, { periods })).status).toBe(400);
    expect((await extendQuote("0000ffff", { periods: 1 })).status).toBe(404);
    const bare = await extendQuotePost(
      new Request("http://localhost/api/checkout/extend-quote", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
        body: JSON.stringify({ periods: 1 }),
      }),
    );
    expect(bare.status).toBe(401);
  });

  it("confirm refuses a transaction that extended nothing", async () => {
    const { rental } = await hourRental();
    const res = await extendConfirm(rental.txHash);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/does not prove an extension/);
  });
});
