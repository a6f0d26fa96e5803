// Checkout against a real chain (anvil) and the real database: quote → pay (permit or approve) →
// confirm, what a confirm refuses (changing nothing), quote refusals and the checkout HTTP surface.
// Settlement (release sweep, event reader, crons) is in payments-settlement.test.ts.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { erc20Abi, type Hex, parseEventLogs, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as confirmPost } from "@/app/api/checkout/confirm/route";
import { POST as quotePost } from "@/app/api/checkout/quote/route";
import { GET as statusGet } from "@/app/api/v1/status/route";
import { checkoutWithKey } from "@/lib/chain/checkout-with-key";
import * as RentalEscrow from "@/lib/chain/generated/RentalEscrow";
import { quoteDomain, quoteTypes } from "@/lib/chain/quote-typed-data";
import { quoteArgs } from "@/lib/checkout/checkout-api";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { credentialDigest } from "@/lib/ratelimit/known-credentials";
import { knownCredentials } from "@/lib/ratelimit/policies";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { renterRequest } from "@/test/api-requests";
import { startWebhook, uniqueIp } from "@/test/fixtures";
import { tsNodeArgs } from "../../scripts/node-args";
import { Status } from "./escrow";
import {
  admin,
  arbiter,
  blockTimeOf,
  checkoutRequest,
  escrowAbi,
  FEE,
  iso,
  makePayableAgent,
  newAddress,
  newRenter,
  operator,
  type Payments,
  pay,
  send,
  signer,
  startPayments,
  treasury,
  USDC,
} from "./payments-harness";

let p: Payments;

beforeAll(async () => {
  p = await startPayments();
});
afterAll(() => p?.stop());

const status = async (rentalId: string) => statusGet(renterRequest("status", { code: rentalId.slice(0, 8) }));
const quote = (body: unknown, ip = uniqueIp()) => quotePost(checkoutRequest("quote", body, ip));
const confirm = (body: unknown, ip = uniqueIp()) => confirmPost(checkoutRequest("confirm", body, ip));

/** A quoted, unpaid rental (hour, 2 USDC) for a fresh renter. */
async function pendingRental() {
  const renter = await newRenter(p);
  const { agent, payout } = await makePayableAgent();
  const quoted = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address });
  return { renter, agent, payout, quoted };
}

describe("checkout with a key (the CLI's and the demo's path)", () => {
  it.each(["permit", "approve"] as const)("%s: active with the block's times; the renter paid price + 1 USDC exactly", async (how) => {
    const renter = await newRenter(p);
    const { agent, payout } = await makePayableAgent();
    const [renterBefore, escrowBefore] = await Promise.all([p.e.balanceOf(renter.address), p.e.balanceOf(p.e.escrow)]);

    const result = await checkoutWithKey({
      agentId: agent.id,
      durationType: "hour",
      channel: "API",
      renterKey: renter.key,
      permit: how === "permit",
    });

    const t = await blockTimeOf(p, result.txHash);
    expect(result).toEqual({
      id: expect.any(String),
      code: result.id.slice(0, 8),
      status: "active",
      starts_at: iso(t),
      ends_at: iso(t + 3_600n),
      txHash: result.txHash,
      // The live check of the agent's webhook the quote began with.
      probe: { latency_ms: expect.any(Number), checked_at: expect.any(String) },
    });
    expect(renterBefore - (await p.e.balanceOf(renter.address))).toBe(2n * USDC + FEE);
    expect((await p.e.balanceOf(p.e.escrow)) - escrowBefore).toBe(2n * USDC + FEE);
    expect(await p.e.balanceOf(payout)).toBe(0n);
    // permit: one transaction in all; approve: approve + createRental.
    expect(await p.publicClient.getTransactionCount({ address: renter.address })).toBe(how === "permit" ? 1 : 2);

    const row = await db.rental.findUniqueOrThrow({ where: { id: result.id }, include: { renter: true } });
    expect(row).toMatchObject({
      status: "active",
      agentId: agent.id,
      priceMicro: 2n * USDC,
      feeMicro: FEE,
      createTxHash: result.txHash.toLowerCase(),
    });
    expect(row.renter?.walletAddress).toBe(renter.address.toLowerCase());
    expect(await p.e.rental(row.escrowId as Hex)).toMatchObject({
      status: Status.Active,
      renter: renter.address,
      owner: payout,
      startsAt: Number(t),
      endsAt: Number(t) + 3_600,
      price: 2n * USDC,
    });
    const res = await status(result.id);
    expect(res.status).toBe(200);
    expect((await res.json()).rental).toMatchObject({
      id: result.id,
      status: "active",
      starts_at: iso(t),
      ends_at: iso(t + 3_600n),
    });
  });

  // The operator CLI in a process of its own (tsx, Prisma: seconds each), on this file's chain.
  it("the CLI's rental:checkout prints the check of the agent; an agent that does not answer is refused, non-zero, with the message", {
    timeout: 120_000,
  }, async () => {
    const renter = await newRenter(p);
    const cli = async (agentId: string) => {
      const settings = {
        CHAIN_ID: String(env.CHAIN_ID),
        CHAIN_RPC_URL: env.CHAIN_RPC_URL!,
        CHAIN_CONFIRMATIONS: String(env.CHAIN_CONFIRMATIONS),
        USDC_ADDRESS: env.USDC_ADDRESS!,
        ESCROW_ADDRESS: env.ESCROW_ADDRESS!,
        QUOTE_SIGNER_PRIVATE_KEY: env.QUOTE_SIGNER_PRIVATE_KEY!,
        OPERATOR_PRIVATE_KEY: env.OPERATOR_PRIVATE_KEY!,
        RENTER_PRIVATE_KEY: renter.key,
      };
      try {
        const { stdout, stderr } = await promisify(execFile)(
          process.execPath,
          tsNodeArgs("scripts/cli.ts", ["rental:checkout", "--agent", agentId, "--duration", "hour"], { reactServer: true }),
          { env: { ...process.env, ...settings } },
        );
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };

    const { agent } = await makePayableAgent();
    const paid = await cli(agent.id);
    expect(paid.code, paid.stderr).toBe(0);
    const printed = JSON.parse(paid.stdout);
    expect(printed).toMatchObject({
      code: printed.id.slice(0, 8),
      probe: { latency_ms: expect.any(Number), checked_at: expect.any(String) },
    });
    expect(Number.isInteger(printed.probe.latency_ms)).toBe(true);

    const failing = await startWebhook((_req, res) => res.writeHead(503).end());
    try {
      const { agent: down } = await makePayableAgent({ webhook: failing.url });
      const refused = await cli(down.id);
      expect(refused.code).toBe(2);
      // No rental printed (stdout holds only the owner's e-mail, as the development outbox shows it).
      expect(refused.stdout).not.toContain('"code"');
      expect(refused.stderr).toBe(
        `error: "${down.name}" is not answering right now. Nothing was charged: try again later, or pick another agent.\n`,
      );
      expect(await db.rental.count({ where: { agentId: down.id } })).toBe(0);
      expect((await db.agent.findUniqueOrThrow({ where: { id: down.id } })).status).toBe("offline");
    } finally {
      await failing.close();
    }
  });

  it("step by step over HTTP: the quoted rental stays pending and invisible to /v1 until its payment is confirmed", async () => {
    const renter = await newRenter(p);
    const { agent, payout } = await makePayableAgent();
    const ip = uniqueIp();
    const res = await quote({ agentId: agent.id, durationType: "day", channel: "Telegram", renter: renter.address.toLowerCase() }, ip);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      rentalId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      claimSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      quote: {
        rentalId: (await db.rental.findUniqueOrThrow({ where: { id: body.rentalId } })).escrowId,
        renter: renter.address,
        owner: payout,
        price: "10000000",
        fee: "1000000",
        duration: "86400",
        deadline: expect.stringMatching(/^\d+$/),
      },
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      chainId: 31337,
      escrow: p.e.escrow,
      usdc: p.e.token,
      price: 10,
      fee: 1,
      total: 11,
      totalMicro: "11000000",
      probe: { latency_ms: expect.any(Number), checked_at: expect.any(String) },
    });
    expect(res.headers.get("ratelimit-limit")).toBe("20");
    const id: string = body.rentalId;
    const pending = await db.rental.findUniqueOrThrow({ where: { id } });
    expect(pending).toMatchObject({
      status: "pending",
      renterAddress: renter.address.toLowerCase(),
      payoutAddress: payout.toLowerCase(),
      createTxHash: null,
    });
    // The quote is payable for QUOTE_TTL_SECONDS from the moment it was made (the pending row's
    // provisional start), to the second the contract sees.
    expect(pending.quoteDeadline!.getTime() - pending.startsAt.getTime()).toBe(env.QUOTE_TTL_SECONDS * 1000);
    expect(body.quote.deadline).toBe(String(Math.floor(pending.quoteDeadline!.getTime() / 1000)));
    expect((await status(id)).status).toBe(404);

    const q = body.quote;
    const receipt = await pay(
      p,
      renter,
      {
        quote: quoteArgs(q),
        signature: body.signature,
      },
      "permit",
    );
    // Paid on chain, but the service has not seen the proof yet.
    expect((await db.rental.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    expect((await status(id)).status).toBe(404);

    const digest = credentialDigest("rental-code", id.slice(0, 8));
    expect(await knownCredentials().has(digest)).toBe(false);
    const confirmed = await confirm({ txHash: receipt.transactionHash, claimSecret: body.claimSecret }, ip);
    expect(confirmed.status).toBe(200);
    // Activation marks the code as one in use: it passes even while the guessing breaker is open.
    expect(await knownCredentials().has(digest)).toBe(true);
    const t = await blockTimeOf(p, receipt.transactionHash);
    expect(await confirmed.json()).toEqual({
      id,
      code: id.slice(0, 8),
      status: "active",
      starts_at: iso(t),
      ends_at: iso(t + 86_400n),
      txHash: receipt.transactionHash,
    });
    const shown = await status(id);
    expect(shown.status).toBe(200);
    expect((await shown.json()).rental).toMatchObject({
      status: "active",
      duration_type: "day",
      channel: "Telegram",
      starts_at: iso(t),
    });
  });
});

describe("confirm refuses a hash that proves no payment, and changes nothing", () => {
  async function expectRefused(pending: Awaited<ReturnType<typeof pendingRental>>, txHash: Hex, message: RegExp) {
    const before = await db.rental.findUniqueOrThrow({ where: { id: pending.quoted.rentalId } });
    const res = await confirm({ txHash });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
    await expect(confirmRentalPayment(txHash)).rejects.toMatchObject({ status: 400 });
    expect(await db.rental.findUniqueOrThrow({ where: { id: pending.quoted.rentalId } })).toEqual(before);
    expect(before.status).toBe("pending");
  }

  it("a forged hash (no such transaction)", async () => {
    await expectRefused(await pendingRental(), toHex(randomBytes(32)), /No mined transaction/);
  });

  it("a foreign transaction: a plain USDC transfer", async () => {
    const pending = await pendingRental();
    const receipt = await send(p, pending.renter, p.e.token, erc20Abi, "transfer", [newAddress(), 3n * USDC]);
    expect(receipt.status).toBe("success");
    await expectRefused(pending, receipt.transactionHash, /does not prove a payment/);
  });

  it("a RentalCreated for the rental's id emitted by a second escrow at another address with the same signer", async () => {
    const pending = await pendingRental();
    const otherEscrow = await p.deploy(admin.address, RentalEscrow, [
      p.e.token,
      admin.address,
      treasury.address,
      signer.address,
      operator.address,
      arbiter.address,
    ]);
    expect(otherEscrow).not.toBe(p.e.escrow);
    const q = pending.quoted.quote;
    // The same signer key signs the same quote for the other contract: the chain accepts it there.
    const signature = await signer.signTypedData({
      domain: quoteDomain(31337, otherEscrow),
      types: quoteTypes,
      primaryType: "Quote",
      message: q,
    });
    await send(p, pending.renter, p.e.token, erc20Abi, "approve", [otherEscrow, q.price + q.fee]);
    const receipt = await send(p, pending.renter, otherEscrow, escrowAbi, "createRental", [q, signature]);
    expect(receipt.status).toBe("success");
    const created = parseEventLogs({ abi: escrowAbi, eventName: "RentalCreated", logs: receipt.logs });
    expect(created.map((l) => [l.address, l.args.id])).toEqual([[otherEscrow.toLowerCase(), q.rentalId]]);
    await expectRefused(pending, receipt.transactionHash, /does not prove a payment/);
  });

  it("a RentalCreated on our escrow that does not match the quote the service signed (a leaked signer key)", async () => {
    const pending = await pendingRental();
    const q = { ...pending.quoted.quote, price: 1n };
    const signature = await signer.signTypedData({
      domain: quoteDomain(31337, p.e.escrow),
      types: quoteTypes,
      primaryType: "Quote",
      message: q,
    });
    const receipt = await pay(p, pending.renter, { quote: q, signature });
    expect(receipt.status).toBe("success");
    await expectRefused(pending, receipt.transactionHash, /does not prove a payment/);
  });

  it("a reverted transaction (createRental without an allowance)", async () => {
    const pending = await pendingRental();
    const receipt = await send(
      p,
      pending.renter,
      p.e.escrow,
      escrowAbi,
      "createRental",
      [pending.quoted.quote, pending.quoted.signature],
      500_000n,
    );
    expect(receipt.status).toBe("reverted");
    await expectRefused(pending, receipt.transactionHash, /failed on chain/);
  });

  it("confirm called twice gives the same answer and changes nothing the second time", async () => {
    const pending = await pendingRental();
    const receipt = await pay(p, pending.renter, pending.quoted);
    const claim = { claimSecret: pending.quoted.claimSecret };
    const first = await confirmRentalPayment(receipt.transactionHash, claim);
    const row = await db.rental.findUniqueOrThrow({ where: { id: pending.quoted.rentalId } });
    const again = await confirm({ txHash: receipt.transactionHash, ...claim });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(first);
    expect(await confirmRentalPayment(receipt.transactionHash.toUpperCase().replace("0X", "0x"), claim)).toEqual(first);
    expect(await db.rental.findUniqueOrThrow({ where: { id: pending.quoted.rentalId } })).toEqual(row);
    expect(row.status).toBe("active");
  });
});
