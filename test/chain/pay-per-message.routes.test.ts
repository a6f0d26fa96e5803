// Answers sold per message (x402) through POST /api/v1/agents/{agentId}/chat, paid by the official
// client (@x402/fetch with @x402/evm's exact scheme and a funded viem account) on a real chain and
// database: the 402, the paid 200 and its settlement, and everything that must leave money alone.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/agents/[agentId]/chat/route";
import { POST as MCP } from "@/app/api/v1/agents/[agentId]/mcp/route";
import * as TestUSDC from "@/lib/chain/generated/TestUSDC";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { messageFeeMicro } from "@/lib/money/message-fee";
import { type ReceivedRequest, startWebhook, uniqueIp } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { makePayableAgent, newRenter, type Payments, type Renter, startPayments, treasury } from "./payments-harness";

// Settlement picks the operator's nonces from chain_transactions: another file's operator rows
// (on its own anvil) must not be seen.
isolateDatabase("pay_per_message_routes");

const PRICE = 20_000n; // 0.02 USDC
const FEE = messageFeeMicro(PRICE); // 0.001 USDC at the default 5 %

let p: Payments;
let webhook: Awaited<ReturnType<typeof startWebhook>>;
// What the agent's webhook answers next: its status and JSON body.
let answer: { status: number; body: unknown } = { status: 200, body: { reply: "hello from the agent" } };

beforeAll(async () => {
  p = await startPayments();
  webhook = await startWebhook((_req, res) => {
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
});
afterAll(async () => {
  await webhook?.close();
  await p?.stop();
});

async function sellingAgent(options: { offline?: boolean; price?: bigint | null } = {}) {
  const { agent, payout } = await makePayableAgent({ webhook: webhook.url, offline: options.offline });
  await db.agent.update({ where: { id: agent.id }, data: { pricePerMessage: options.price === undefined ? PRICE : options.price } });
  return { agent, payout };
}

// The route as the service serves it, called by whatever fetch the client uses; every request
// (the client's paid retry included) is kept, with the address it comes from.
function routeFetch(agentId: string, ip = uniqueIp()) {
  const sent: Request[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    req.headers.set("x-forwarded-for", ip);
    sent.push(req.clone());
    return POST(req, { params: Promise.resolve({ agentId }) });
  };
  return { fetchImpl: fetchImpl as typeof fetch, sent };
}

function payingFetch(renter: Renter, agentId: string, ip?: string) {
  const route = routeFetch(agentId, ip);
  const network = `eip155:${p.publicClient.chain.id}` as const;
  const client = new x402Client()
    .register(network, new ExactEvmScheme(renter.account))
    .setSpendControls({ allowedAssets: [{ network, asset: p.e.token }] });
  return { ...route, pay: wrapFetchWithPayment(route.fetchImpl, client) };
}

const chat = (message = "What is 2 + 2?") => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ message }),
});
const url = (agentId: string) => `http://localhost/api/v1/agents/${agentId}/chat`;
const credit = (address: Address) => p.e.credits(address);
const received = (agentId: string): ReceivedRequest[] => webhook.received.filter((r) => JSON.parse(r.body).agentId === agentId);

describe("the 402", () => {
  it("names the exact USDC payment to the escrow that the official client decodes, in the header and the body", async () => {
    const { agent } = await sellingAgent();
    const { fetchImpl } = routeFetch(agent.id);
    const res = await fetchImpl(url(agent.id), chat());
    expect(res.status).toBe(402);
    const required = decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!);
    expect(await res.json()).toEqual(required);
    expect(required.x402Version).toBe(2);
    expect(required.error).toBe("Payment required");
    expect(required.accepts).toEqual([
      {
        scheme: "exact",
        network: `eip155:${p.publicClient.chain.id}`,
        asset: p.e.token,
        amount: String(PRICE + FEE),
        payTo: p.e.escrow,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin (test)", version: "1" },
      },
    ]);
    expect(required.resource.url).toBe(`${appUrl()}/api/v1/agents/${agent.id}/chat`);
    expect(required.resource.description).toContain(JSON.stringify(agent.name));
    expect(received(agent.id)).toHaveLength(0);
  });

  it("404 for an agent not sold per message or not there, 503 while offline, 400 for a bad message: nothing asked of the chain", async () => {
    const notSold = await sellingAgent({ price: null });
    const offline = await sellingAgent({ offline: true });
    const call = (agentId: string, init = chat()) => routeFetch(agentId).fetchImpl(url(agentId), init);
    expect((await call(notSold.agent.id)).status).toBe(404);
    expect((await call("not-an-id")).status).toBe(404);
    expect((await call("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const off = await call(offline.agent.id);
    expect(off.status).toBe(503);
    expect((await off.json()).error).toMatch(/offline/);
    const empty = await call(offline.agent.id, { ...chat(), body: JSON.stringify({ message: "" }) });
    expect(empty.status).toBe(400);
  });
});

describe("a paid answer", () => {
  it("200 with exactly the webhook's answer and the settlement; the owner credited the price, the treasury the fee, once", async () => {
    const renter = await newRenter(p);
    const { agent, payout } = await sellingAgent();
    answer = { status: 200, body: { reply: "4", sources: [1, 2] } };
    const [balance, treasuryCredit] = await Promise.all([p.e.balanceOf(renter.address), credit(treasury.address)]);

    const { pay, sent } = payingFetch(renter, agent.id);
    const res = await pay(url(agent.id), chat());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response: { reply: "4", sources: [1, 2] }, agent: { id: agent.id, name: agent.name } });
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
    expect(settlement).toMatchObject({ success: true, network: `eip155:${p.publicClient.chain.id}` });
    expect(settlement.payer?.toLowerCase()).toBe(renter.address.toLowerCase());
    const receipt = await p.publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex });
    expect(receipt.status).toBe("success");
    expect(receipt.to?.toLowerCase()).toBe(p.e.escrow.toLowerCase());

    expect(await credit(payout)).toBe(PRICE);
    expect((await credit(treasury.address)) - treasuryCredit).toBe(FEE);
    expect(balance - (await p.e.balanceOf(renter.address))).toBe(PRICE + FEE);

    // The owner was asked once, as for a rental's message but with the payment instead.
    const [call] = received(agent.id);
    expect(received(agent.id)).toHaveLength(1);
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({ type: "message", message: "What is 2 + 2?", channel: "API", rental: null });
    expect(body.payment.payer.toLowerCase()).toBe(renter.address.toLowerCase());
    expect(call.headers["x-payment-ref"]).toBe(body.payment.ref);
    expect(call.headers["x-rental-ref"]).toBeUndefined();

    const row = await db.messagePayment.findFirstOrThrow({ where: { agentId: agent.id } });
    expect(row).toMatchObject({ status: "settled", txHash: settlement.transaction, priceMicro: PRICE, feeMicro: FEE });
    expect(body.payment.ref).toBe(`mp_${row.id.replaceAll("-", "")}`);
    await expect.poll(() => db.chatCall.count({ where: { messagePaymentId: row.id, statusCode: 200 } })).toBe(1);
    // The paid retry carried the payment; the first request did not.
    expect(sent.map((r) => r.headers.has("PAYMENT-SIGNATURE"))).toEqual([false, true]);
  });

  it("a webhook answering 500: 502 to the caller, nothing settled, the authorization never used", async () => {
    const renter = await newRenter(p);
    const { agent, payout } = await sellingAgent();
    answer = { status: 500, body: { error: "boom" } };
    const balance = await p.e.balanceOf(renter.address);
    const { pay, sent } = payingFetch(renter, agent.id);
    const res = await pay(url(agent.id), chat());
    answer = { status: 200, body: { reply: "ok" } };
    expect(res.status).toBe(502);
    expect(res.headers.get("PAYMENT-RESPONSE")).toBeNull();
    expect(await p.e.balanceOf(renter.address)).toBe(balance);
    expect(await credit(payout)).toBe(0n);
    const payment = decodePaymentSignatureOf(sent[1]);
    const nonce = (payment.payload.authorization as { nonce: Hex }).nonce;
    const used = await p.publicClient.readContract({
      address: p.e.token,
      abi: TestUSDC.abi,
      functionName: "authorizationState",
      args: [renter.address, nonce],
    });
    expect(used).toBe(false);
    expect(await db.messagePayment.findFirstOrThrow({ where: { agentId: agent.id } })).toMatchObject({ status: "unpaid", txHash: null });
    await expect.poll(() => db.chatCall.count({ where: { agentId: agent.id, statusCode: 502, webhookStatus: 500 } })).toBe(1);
  });

  it("the same authorization again (replayed, or twice at once) is refused: one answer, one settlement", async () => {
    const renter = await newRenter(p);
    const { agent, payout } = await sellingAgent();
    answer = { status: 200, body: { reply: "once" } };
    const { pay, sent, fetchImpl } = payingFetch(renter, agent.id);
    expect((await pay(url(agent.id), chat())).status).toBe(200);
    const header = sent[1].headers.get("PAYMENT-SIGNATURE")!;

    const replay = await fetchImpl(url(agent.id), {
      ...chat(),
      headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": header },
    });
    expect(replay.status).toBe(402);
    expect(decodePaymentRequiredHeader(replay.headers.get("PAYMENT-REQUIRED")!).error).toMatch(/already used/);
    expect(received(agent.id)).toHaveLength(1);
    expect(await credit(payout)).toBe(PRICE);

    // A fresh authorization sent twice at once: the owner is asked once, paid once.
    const second = await newRenter(p);
    const other = payingFetch(second, agent.id);
    const first402 = await other.fetchImpl(url(agent.id), chat());
    const signed = await new x402Client()
      .register(`eip155:${p.publicClient.chain.id}`, new ExactEvmScheme(second.account))
      .setSpendControls(false)
      .createPaymentPayload(decodePaymentRequiredHeader(first402.headers.get("PAYMENT-REQUIRED")!));
    const withPayment = {
      ...chat(),
      headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(signed) },
    };
    const both = await Promise.all([other.fetchImpl(url(agent.id), withPayment), other.fetchImpl(url(agent.id), withPayment)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 402]);
    expect(received(agent.id)).toHaveLength(2);
    expect(await credit(payout)).toBe(2n * PRICE);
  });

  it("an expired or underfunded authorization gets the 402 again with the reason; ten failures a minute and the wallet is refused", async () => {
    const poor = await newRenter(p, { usdc: PRICE }); // the price without the fee
    const { agent } = await sellingAgent();
    const { pay } = payingFetch(poor, agent.id);
    const underfunded = await pay(url(agent.id), chat());
    expect(underfunded.status).toBe(402);
    expect(decodePaymentRequiredHeader(underfunded.headers.get("PAYMENT-REQUIRED")!).error).toMatch(/^insufficient_funds: .*0\.02 USDC/);

    const renter = await newRenter(p);
    const { fetchImpl } = routeFetch(agent.id);
    const required = decodePaymentRequiredHeader((await fetchImpl(url(agent.id), chat())).headers.get("PAYMENT-REQUIRED")!);
    const signer = new x402Client()
      .register(`eip155:${p.publicClient.chain.id}`, new ExactEvmScheme(renter.account))
      .setSpendControls(false);
    // A client whose clock is 10 minutes behind signs an authorization that expired 5 minutes ago.
    const realNow = Date.now;
    Date.now = () => realNow() - 600_000;
    const expired = await signer.createPaymentPayload(required).finally(() => {
      Date.now = realNow;
    });
    const send = (payment: PaymentPayload) =>
      fetchImpl(url(agent.id), {
        ...chat(),
        headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) },
      });
    const late = await send(expired);
    expect(late.status).toBe(402);
    expect(decodePaymentRequiredHeader(late.headers.get("PAYMENT-REQUIRED")!).error).toMatch(/valid_before/);

    // Nine more failures make ten for this wallet within the minute: the next is refused outright.
    for (let i = 0; i < 9; i++) expect((await send(expired)).status).toBe(402);
    const refused = await send(expired);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/failed verification 10 times/);
    expect(received(agent.id)).toHaveLength(0);
  });
});

describe("payments in someone else's name", () => {
  it("never count against that wallet: after twelve forged ones it still pays for its answer", async () => {
    const victim = await newRenter(p);
    const { agent } = await sellingAgent();
    answer = { status: 200, body: { reply: "still here" } };
    const { fetchImpl } = routeFetch(agent.id);
    const required = decodePaymentRequiredHeader((await fetchImpl(url(agent.id), chat())).headers.get("PAYMENT-REQUIRED")!);
    const attacker = await newRenter(p);
    const signed = await new x402Client()
      .register(`eip155:${p.publicClient.chain.id}`, new ExactEvmScheme(attacker.account))
      .setSpendControls(false)
      .createPaymentPayload(required);
    // The attacker's signature over an authorization that names the victim as the payer.
    const authorization = { ...(signed.payload.authorization as Record<string, string>), from: victim.address };
    const forged = { ...signed, payload: { ...signed.payload, authorization } };
    for (let i = 0; i < 12; i++) {
      const res = await fetchImpl(url(agent.id), {
        ...chat(),
        headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(forged) },
      });
      expect(res.status).toBe(402);
      expect(decodePaymentRequiredHeader(res.headers.get("PAYMENT-REQUIRED")!).error).toMatch(/signature/);
    }
    const { pay } = payingFetch(victim, agent.id);
    expect((await pay(url(agent.id), chat())).status).toBe(200);
  });
});

describe("a paid answer over MCP (the x402 MCP transport)", () => {
  it("the chat tool asks for the payment, then answers the paid call with the settlement in _meta; a failing agent is not paid", async () => {
    const renter = await newRenter(p);
    const { agent, payout } = await sellingAgent();
    answer = { status: 200, body: "four" };
    const ip = uniqueIp();
    const mcpFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      req.headers.set("x-forwarded-for", ip);
      return MCP(req, { params: Promise.resolve({ agentId: agent.id }) });
    }) as typeof fetch;
    const mcp = new Client({ name: "paying-agent", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://localhost/api/v1/agents/${agent.id}/mcp`), { fetch: mcpFetch }));
    const network = `eip155:${p.publicClient.chain.id}` as const;
    const payer = new x402Client()
      .register(network, new ExactEvmScheme(renter.account))
      .setSpendControls({ allowedAssets: [{ network, asset: p.e.token }] });

    const unpaid = await mcp.callTool({ name: "chat", arguments: { message: "2 + 2?" } });
    expect(unpaid.isError).toBe(true);
    const required = unpaid.structuredContent as unknown as PaymentRequired;
    expect(JSON.parse((unpaid.content as { text: string }[])[0].text)).toEqual(required);
    expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount: String(PRICE + FEE), payTo: p.e.escrow });
    expect(received(agent.id)).toHaveLength(0);

    const paid = await mcp.callTool({
      name: "chat",
      arguments: { message: "2 + 2?" },
      _meta: { "x402/payment": await payer.createPaymentPayload(required) },
    });
    expect(paid.isError).toBeFalsy();
    expect(paid.content).toEqual([{ type: "text", text: "four" }]);
    const settlement = paid._meta?.["x402/payment-response"] as SettleResponse;
    expect(settlement.success).toBe(true);
    expect((await p.publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex })).status).toBe("success");
    expect(await credit(payout)).toBe(PRICE);

    answer = { status: 503, body: { error: "down" } };
    const failed = await mcp.callTool({
      name: "chat",
      arguments: { message: "again" },
      _meta: { "x402/payment": await payer.createPaymentPayload(required) },
    });
    answer = { status: 200, body: { reply: "ok" } };
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0].text).toMatch(/HTTP 502.*Nothing was charged/);
    expect(failed._meta?.["x402/payment-response"]).toBeUndefined();
    expect(await credit(payout)).toBe(PRICE);
    await mcp.close();
  });
});

function decodePaymentSignatureOf(req: Request): PaymentPayload {
  return JSON.parse(Buffer.from(req.headers.get("PAYMENT-SIGNATURE")!, "base64").toString("utf8")) as PaymentPayload;
}
