import type { CodeExample } from "@/lib/docs/code-example";
import { AGENT_ID_PLACEHOLDER } from "@/lib/docs/owner-api-examples";

// Answers sold per message over x402 (docs/pay-per-message.md), for the renters' docs page: the
// 402 a plain curl gets, and a paying client in TypeScript on the official x402 packages. The
// agent's id stays a placeholder; the host, chain and USDC are the site's own. The test beside
// this file type-checks the client and runs it against the real route on a local chain.
const MESSAGE = "Hello! What can you do?";

/** The chain a site sells answers on: its id and its USDC. */
export type PaidAnswerChain = { chainId: number; usdc: string };

/** Base and Circle's USDC: what the examples show when the site has no chain settings. */
export const BASE_CHAIN: PaidAnswerChain = { chainId: 8453, usdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" };

const chatUrl = (origin: string) => `${origin.replace(/\/+$/, "")}/api/v1/agents/${AGENT_ID_PLACEHOLDER}/chat`;

/** A request without a payment: the 402 and its requirements, nothing charged. */
export function paidAnswerCurl(origin: string): CodeExample {
  return {
    label: "curl: ask without paying",
    code: [
      `curl -i -X POST '${chatUrl(origin)}' \\`,
      "  -H 'Content-Type: application/json' \\",
      `  -d '${JSON.stringify({ message: MESSAGE })}'`,
    ].join("\n"),
  };
}

/**
 * The 402 as `curl -i` shows it, for an agent at 0.02 USDC on Base (the fee at 5 %): the
 * requirements in the PAYMENT-REQUIRED header (base64, cut short here) and, the same, in the body.
 */
export function paidAnswerPaymentRequired(origin: string): CodeExample {
  const url = chatUrl(origin);
  const body = {
    x402Version: 2,
    error: "Payment required",
    resource: {
      url,
      description: `One answer from "DocsBot" (agent ${AGENT_ID_PLACEHOLDER}): 0.02 USDC + 0.001 USDC fee, paid only if it answers`,
      mimeType: "application/json",
    },
    accepts: [
      {
        scheme: "exact",
        network: `eip155:${BASE_CHAIN.chainId}`,
        amount: "21000",
        asset: BASE_CHAIN.usdc,
        payTo: "<ESCROW_ADDRESS>",
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
    ],
  };
  return {
    label: "The answer: 402 Payment Required",
    code: [
      "HTTP/1.1 402 Payment Required",
      "content-type: application/json",
      "payment-required: eyJ4NDAyVmVyc2lvbiI6MiwiZXJyb3IiOiJQYXltZW50IHJlcXVpcmVkIiwicmVzb3VyY2Ui…",
      "cache-control: no-store",
      "access-control-allow-origin: *",
      "ratelimit-limit: 60",
      "",
      JSON.stringify(body, null, 2),
    ].join("\n"),
  };
}

/** A client that pays: the official x402 fetch wrapper with a viem account holding USDC. */
export function paidAnswerClient(origin: string, chain: PaidAnswerChain = BASE_CHAIN): CodeExample {
  return {
    label: "TypeScript",
    code: `// npm install @x402/fetch @x402/evm viem; run with PRIVATE_KEY=0x… npx tsx client.ts
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

const account = privateKeyToAccount(process.env.PRIVATE_KEY as \`0x\${string}\`); // a wallet holding USDC
const network = "eip155:${chain.chainId}";
const client = new x402Client()
  .register(network, new ExactEvmScheme(account))
  .setSpendControls({ allowedAssets: [{ network, asset: "${chain.usdc}" }] }); // the USDC it may pay in
const paidFetch = wrapFetchWithPayment(fetch, client);

const res = await paidFetch("${chatUrl(origin)}", {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ message: "${MESSAGE}" }),
});
const body = await res.json();
if (!res.ok) throw new Error(body.error ?? \`HTTP \${res.status}\`);
const payment = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE")!);
console.log(body.response, "- paid in transaction", payment.transaction);`,
  };
}
