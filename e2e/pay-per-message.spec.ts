// Answers sold per message (x402) against the running server (`npm start`) and anvil, paid by the
// official client: @x402/fetch wrapping fetch, @x402/evm's exact scheme, a funded viem account.
// 402 → paid 200 → the owner's payout balance on the escrow up by exactly the price, the
// treasury's by the fee; a webhook answering 500 settles nothing; a replayed authorization is refused.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { type Address, createPublicClient, type Hex, http as viemHttp } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import * as RentalEscrow from "../lib/chain/generated/RentalEscrow";
import { baseUrl, mintUsdc, operatorCli, sql, usdcBalance } from "./stack";

const PRICE = 50_000n; // 0.05 USDC
const FEE = 2_500n; // MESSAGE_FEE_BPS 500: 5 % of the price

const chain = () => createPublicClient({ chain: foundry, transport: viemHttp(process.env.E2E_RPC_URL) });
const escrow = () => process.env.E2E_ESCROW as Address;
const credit = (who: Address) =>
  chain().readContract({ address: escrow(), abi: RentalEscrow.abi, functionName: "credits", args: [who] }) as Promise<bigint>;

let hook: http.Server;
const messages: string[] = [];
let agentId: string;
const payout = privateKeyToAccount(generatePrivateKey()).address;

test.beforeAll(async () => {
  hook = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c));
    req.on("end", () => {
      const event = JSON.parse(raw) as { type: string; message?: string };
      if (event.type === "health_check") return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      messages.push(event.message ?? "");
      if (event.message === "fail") return res.writeHead(500).end("down");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ answer: `You asked: ${event.message}` }));
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/agent`;
  const owner = await operatorCli(["owner:create", "--email", `x402-${randomBytes(4).toString("hex")}@example.com`, "--wallet", payout]);
  const agent = await operatorCli([
    ...["agent:create", "--owner", String(owner.accountId), "--name", "Per Answer Bot", "--price-hour", "2"],
    ...["--webhook-url", url, "--webhook-token", randomBytes(32).toString("base64url")],
  ]);
  agentId = String(agent.id);
  await sql("UPDATE agents SET price_per_message = $2 WHERE id = $1", [agentId, PRICE]);
});
test.afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

async function payer() {
  const account = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(account.address, 1_000_000n);
  const network = `eip155:${foundry.id}` as const;
  const client = new x402Client()
    .register(network, new ExactEvmScheme(account))
    .setSpendControls({ allowedAssets: [{ network, asset: process.env.E2E_USDC as Address }] });
  // Every request the client sends, the paid retry's PAYMENT-SIGNATURE included.
  const sent: Headers[] = [];
  const recording: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    sent.push(request.headers);
    return fetch(request);
  };
  return { account, sent, pay: wrapFetchWithPayment(recording, client) };
}

const chatUrl = () => `${baseUrl()}/api/v1/agents/${agentId}/chat`;
const ask = (message: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ message }),
});

test("a caller without a payment gets the 402 the official client decodes", async () => {
  const res = await fetch(chatUrl(), ask("hello"));
  expect(res.status).toBe(402);
  const required = decodePaymentRequiredHeader(res.headers.get("payment-required")!);
  expect(await res.json()).toEqual(required);
  expect(required.accepts).toEqual([
    expect.objectContaining({
      scheme: "exact",
      network: `eip155:${foundry.id}`,
      amount: String(PRICE + FEE),
      asset: process.env.E2E_USDC,
      payTo: escrow(),
    }),
  ]);
  expect(required.resource.description).toContain('"Per Answer Bot"');
});

test("the paid retry gets the answer and the settlement; the owner is credited the price, the treasury the fee", async () => {
  const { account, pay, sent } = await payer();
  const treasury = (await chain().readContract({ address: escrow(), abi: RentalEscrow.abi, functionName: "treasury" })) as Address;
  const [treasuryBefore, ownerBefore] = await Promise.all([credit(treasury), credit(payout)]);

  const res = await pay(chatUrl(), ask("What is x402?"));
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ response: { answer: "You asked: What is x402?" }, agent: { id: agentId, name: "Per Answer Bot" } });
  const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  expect(settlement.success).toBe(true);
  const receipt = await chain().getTransactionReceipt({ hash: settlement.transaction as Hex });
  expect(receipt.status).toBe("success");

  expect((await credit(payout)) - ownerBefore).toBe(PRICE);
  expect((await credit(treasury)) - treasuryBefore).toBe(FEE);
  expect(await usdcBalance(account.address)).toBe(1_000_000n - PRICE - FEE);

  // The same authorization again: refused, the owner not asked, nothing moved.
  const asked = messages.length;
  const replay = await fetch(chatUrl(), ask("What is x402?", { "PAYMENT-SIGNATURE": sent[1].get("payment-signature")! }));
  expect(replay.status).toBe(402);
  expect(decodePaymentRequiredHeader(replay.headers.get("payment-required")!).error).toMatch(/already used/);
  expect(messages.length).toBe(asked);
  expect((await credit(payout)) - ownerBefore).toBe(PRICE);
  expect(await usdcBalance(account.address)).toBe(1_000_000n - PRICE - FEE);
});

test("a webhook answering 500: the caller gets 502, nothing is settled, the wallet keeps its USDC", async () => {
  const { account, pay } = await payer();
  const ownerBefore = await credit(payout);
  const res = await pay(chatUrl(), ask("fail"));
  expect(res.status).toBe(502);
  expect(res.headers.get("payment-response")).toBeNull();
  expect(await usdcBalance(account.address)).toBe(1_000_000n);
  expect(await credit(payout)).toBe(ownerBefore);
});
