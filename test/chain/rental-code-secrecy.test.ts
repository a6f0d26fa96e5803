// The rental code (the first 8+ characters of the rental's UUID) is the renter's only key. The
// chain is public, and so is a payment's transaction hash: neither may hand the code to anyone.
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as confirmPost } from "@/app/api/checkout/confirm/route";
import { POST as quotePost } from "@/app/api/checkout/quote/route";
import { quoteArgs } from "@/lib/checkout/checkout-api";
import { db } from "@/lib/db";
import { signInWithWallet } from "@/test/auth-fixtures";
import { uniqueIp } from "@/test/fixtures";
import { checkoutRequest, makePayableAgent, newRenter, type Payments, pay, startPayments } from "./payments-harness";

let p: Payments;

beforeAll(async () => {
  p = await startPayments();
});
afterAll(() => p?.stop());

/** A rental quoted over HTTP (as a browser does) and paid with `how`; the quote's answer and the receipt. */
async function paidOverHttp(how: "permit" | "approve") {
  const renter = await newRenter(p);
  const { agent } = await makePayableAgent();
  const res = await quotePost(
    checkoutRequest("quote", { agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, uniqueIp()),
  );
  expect(res.status).toBe(201);
  const body = await res.json();
  const q = body.quote;
  const receipt = await pay(
    p,
    renter,
    {
      quote: quoteArgs(q),
      signature: body.signature,
    },
    how,
  );
  return { renter, rentalId: body.rentalId as string, claimSecret: body.claimSecret as string, receipt };
}

const confirm = async (body: unknown, init: { ip?: string; cookie?: string } = {}) => {
  const req = checkoutRequest("confirm", body, init.ip ?? uniqueIp());
  if (init.cookie) req.headers.set("cookie", init.cookie);
  const res = await confirmPost(req);
  return { status: res.status, text: await res.text() };
};

describe("the rental code never appears on chain", () => {
  it("no escrow log and no transaction input holds any part of a paid rental's id", async () => {
    const paid = [await paidOverHttp("permit"), await paidOverHttp("approve")];
    for (const { claimSecret, receipt } of paid) expect((await confirm({ txHash: receipt.transactionHash, claimSecret })).status).toBe(200);

    // Everything a stranger can read: every log the escrow ever emitted and the input of every
    // transaction in every block (calldata is also what the mempool shows before mining).
    const logs = await p.publicClient.getLogs({ address: p.e.escrow, fromBlock: 0n, toBlock: "latest" });
    const head = await p.publicClient.getBlockNumber();
    const inputs: Hex[] = [];
    for (let n = 0n; n <= head; n++) {
      const block = await p.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
      inputs.push(...block.transactions.map((tx) => tx.input));
    }
    const publicHex = [...logs.flatMap((log) => [...log.topics, log.data]), ...inputs].map((hex) => (hex ?? "").toLowerCase()).join(" ");
    expect(logs.length).toBeGreaterThan(0);

    for (const { rentalId, receipt } of paid) {
      const row = await db.rental.findUniqueOrThrow({ where: { id: rentalId } });
      expect(row.status).toBe("active");
      // The escrow knows the rental by its random id, and that id is what the chain shows.
      expect(publicHex).toContain(row.escrowId.slice(2));
      expect(receipt.logs.some((log) => (log.topics as Hex[]).includes(row.escrowId as Hex))).toBe(true);
      const code = rentalId.slice(0, 8);
      const hex = rentalId.replaceAll("-", "");
      expect(publicHex).not.toContain(code);
      // Nor any other 8-character window of the id: no later part of it helps a guesser either.
      for (let i = 0; i + 8 <= hex.length; i += 4) expect(publicHex).not.toContain(hex.slice(i, i + 8));
    }
  });
});

describe("confirm hands the code only to the renter", () => {
  it("another client posting the public transaction hash learns that the payment is confirmed, never the code", async () => {
    const { rentalId, claimSecret, receipt, renter } = await paidOverHttp("permit");
    const code = rentalId.slice(0, 8);

    // A stranger, first to post the hash: the payment is activated (the chain proves it), but the
    // answer names no rental.
    const stranger = await confirm({ txHash: receipt.transactionHash });
    expect(stranger.status).toBe(200);
    expect(JSON.parse(stranger.text)).toEqual({ status: "active", txHash: receipt.transactionHash });
    expect(stranger.text).not.toContain(code);
    expect((await db.rental.findUniqueOrThrow({ where: { id: rentalId } })).status).toBe("active");

    // A made-up claim secret, or a signed-in session of another wallet, does not help.
    const guessed = await confirm({ txHash: receipt.transactionHash, claimSecret: "A".repeat(43) });
    expect(guessed.text).not.toContain(code);
    const otherWallet = await signInWithWallet();
    expect((await confirm({ txHash: receipt.transactionHash }, { cookie: otherWallet.cookie })).text).not.toContain(code);

    // The browser that asked for the quote shows its claim secret and gets the code.
    const browser = await confirm({ txHash: receipt.transactionHash, claimSecret });
    expect(JSON.parse(browser.text)).toMatchObject({ id: rentalId, code, status: "active" });

    // So does the paying wallet, signed in (a browser that lost the secret, or came back later).
    const payer = await signInWithWallet(renter.account);
    expect(JSON.parse((await confirm({ txHash: receipt.transactionHash }, { cookie: payer.cookie })).text)).toMatchObject({
      id: rentalId,
      code,
    });
  });

  it("only the claim secret's hash is stored", async () => {
    const { rentalId, claimSecret } = await paidOverHttp("approve");
    const row = await db.rental.findUniqueOrThrow({ where: { id: rentalId } });
    expect(row.claimSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(claimSecret);
  });
});
