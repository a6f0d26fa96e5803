// /api/v1/openapi.json against the real answers of POST /v1/agents/{agentId}/chat on a private
// anvil chain, paid by the official client: the 402's body and PAYMENT-REQUIRED header, the 200's
// body and PAYMENT-RESPONSE header, the payment the client sent in PAYMENT-SIGNATURE, and a 502,
// each valid against the schema the document declares for it.
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/agents/[agentId]/chat/route";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { db } from "@/lib/db";
import { makePayableAgent, newRenter, type Payments, startPayments } from "@/test/chain/payments-harness";
import { startWebhook, uniqueIp } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";

type Declared = {
  headers?: Record<string, { schema: { contentSchema: { $ref: string } } }>;
  content?: Record<string, { schema: { $ref: string } }>;
};
type Operation = { parameters: { name: string; schema: { contentSchema?: { $ref: string } } }[]; responses: Record<string, Declared> };

const DOC_ID = "https://openapi.test/renter-paid";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = (ref: string, value: unknown) => {
  const check = ajv.getSchema(`${DOC_ID}${ref}`)!;
  expect(check(value), `${ref}: ${JSON.stringify(check.errors)}`).toBe(true);
};

let p: Payments;
let op: Operation;
let webhookStatus = 200;
let hook: Awaited<ReturnType<typeof startWebhook>>;

// Settling sends operator transactions, whose nonces are read from chain_transactions: other files
// settling on their own anvil with the same operator key must not share them.
isolateDatabase("openapi_paid_answers");

beforeAll(async () => {
  const doc = await (await openapi(new Request("http://localhost:3000/api/v1/openapi.json"))).json();
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  op = doc.paths["/v1/agents/{agentId}/chat"].post;
  p = await startPayments();
  hook = await startWebhook((_req, res) => res.writeHead(webhookStatus, { "content-type": "application/json" }).end('{"reply":"4"}'));
});
afterAll(async () => {
  await hook?.close();
  await p?.stop();
});

async function sellingAgent() {
  const { agent } = await makePayableAgent({ webhook: hook.url });
  await db.agent.update({ where: { id: agent.id }, data: { pricePerMessage: 20_000n } });
  return agent;
}

// The route called by the official paying client; every request it sends is kept.
async function payingFetch(agentId: string) {
  const sent: Request[] = [];
  const ip = uniqueIp();
  const route = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    req.headers.set("x-forwarded-for", ip);
    sent.push(req.clone());
    return POST(req, { params: Promise.resolve({ agentId }) });
  };
  const renter = await newRenter(p);
  const network = `eip155:${p.publicClient.chain.id}` as const;
  const client = new x402Client()
    .register(network, new ExactEvmScheme(renter.account))
    .setSpendControls({ allowedAssets: [{ network, asset: p.e.token }] });
  return { sent, route: route as typeof fetch, pay: wrapFetchWithPayment(route as typeof fetch, client) };
}

const chat = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "What is 2 + 2?" }) };
const url = (agentId: string) => `http://localhost/api/v1/agents/${agentId}/chat`;
const bodyRef = (status: number) => op.responses[String(status)].content!["application/json"].schema.$ref;
const headerRef = (status: number, name: string) => op.responses[String(status)].headers![name].schema.contentSchema.$ref;

describe("POST /v1/agents/{agentId}/chat as documented", () => {
  it("402: the body and PAYMENT-REQUIRED; 200: the body, PAYMENT-RESPONSE, and the PAYMENT-SIGNATURE the client sent", async () => {
    const agent = await sellingAgent();
    const { route, pay, sent } = await payingFetch(agent.id);

    const unpaid = await route(url(agent.id), chat);
    expect(unpaid.status).toBe(402);
    validate(bodyRef(402), await unpaid.json());
    validate(headerRef(402, "PAYMENT-REQUIRED"), decodePaymentRequiredHeader(unpaid.headers.get("PAYMENT-REQUIRED")!));

    const paid = await pay(url(agent.id), chat);
    expect(paid.status).toBe(200);
    validate(bodyRef(200), await paid.json());
    validate(headerRef(200, "PAYMENT-RESPONSE"), decodePaymentResponseHeader(paid.headers.get("PAYMENT-RESPONSE")!));
    const signature = op.parameters.find((parameter) => parameter.name === "PAYMENT-SIGNATURE")!;
    validate(signature.schema.contentSchema!.$ref, decodePaymentSignatureHeader(sent.at(-1)!.headers.get("PAYMENT-SIGNATURE")!));
  });

  it("502 when the agent fails, and 402 with the reason for a used authorization", async () => {
    const agent = await sellingAgent();
    const { route, pay, sent } = await payingFetch(agent.id);
    webhookStatus = 500;
    const failed = await pay(url(agent.id), chat).finally(() => {
      webhookStatus = 200;
    });
    expect(failed.status).toBe(502);
    validate(bodyRef(502), await failed.json());

    const again = await route(url(agent.id), {
      ...chat,
      headers: { ...chat.headers, "PAYMENT-SIGNATURE": sent.at(-1)!.headers.get("PAYMENT-SIGNATURE")! },
    });
    expect(again.status).toBe(402);
    const body = await again.json();
    validate(bodyRef(402), body);
    expect(body.error).toMatch(/already used/);
  });
});
