// `npm run bench:x402` (and part of `npm run bench`): what selling an answer per message over x402
// adds to a chat (issue 27). In a database of its own (ars_bench_x402) and on a private anvil chain
// in automine (one block per transaction, so one block per settlement) with TestUSDC and the
// escrow, one agent sold per message (0.02 USDC) whose webhook answers at once. Then, one at a time
// and interleaved so both see the same machine state, after a warm-up of 10 each:
//   (a) POST /api/v1/agents/{agentId}/chat paid by the official client (@x402/fetch's
//       wrapFetchWithPayment, @x402/evm's exact scheme, a funded viem account): only the paid retry
//       (the request carrying PAYMENT-SIGNATURE) is timed: verification, the claim, the owner's
//       webhook and the settlement through the escrow, mined and read back;
//   (b) POST /api/v1/chat with a rental code of the same agent, to the same webhook.
// Both route handlers are called in-process (no HTTP server in front), each request from a client
// address of its own. x402_added_p50_ms = p50(a) − p50(b). BENCH_X402_SAMPLES (200) sets the
// samples of each. Prints and records the figures (bench/figures.ts); asserts nothing.
import { randomBytes } from "node:crypto";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { createTestDatabase, dropTestDatabase } from "../test/test-database";
import { recordFigures } from "./figures";

const SAMPLES = Number(process.env.BENCH_X402_SAMPLES ?? 200);
const WARM_UP = 10;
const PRICE = 20_000n; // 0.02 USDC an answer (plus the 5 % fee)
const DATABASE = "ars_bench_x402";

// A database of its own (test/test-database.ts: TEST_DATABASE_ADMIN_URL, by default the local server).
const dbUrl = await createTestDatabase(DATABASE);
process.env.DATABASE_URL = dbUrl;
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";
process.env.SECRET_BOX_KEYS = `bench:${randomBytes(32).toString("base64")}`;
// In-memory rate limits (the bench measures our code, not a network hop); never a real queue or mail.
process.env.UPSTASH_REDIS_REST_URL = "";
process.env.UPSTASH_REDIS_REST_TOKEN = "";
process.env.QSTASH_TOKEN = "";
process.env.RESEND_API_KEY = "";

const { db } = await import("@/lib/db");
const { POST: paidChatRoute } = await import("@/app/api/v1/agents/[agentId]/chat/route");
const { POST: rentalChatRoute } = await import("@/app/api/v1/chat/route");
const { makeRental, uniqueIp } = await import("../test/fixtures");
const { makePayableAgent, newRenter, startPayments } = await import("../test/chain/payments-harness");

// startPayments: anvil (automine), TestUSDC and the escrow deployed, the service's chain settings
// (CHAIN_ID, CHAIN_RPC_URL, USDC_ADDRESS, ESCROW_ADDRESS, QUOTE_SIGNER_PRIVATE_KEY,
// OPERATOR_PRIVATE_KEY) pointed at them.
// The client signs each authorization valid from 600 s before to 300 s after its own clock, and
// anvil stamps every block at least a second after the last: hundreds of settlements a minute run
// the chain's clock ahead of the wall clock. So the chain starts 500 s behind it, and its blocks
// then carry the wall clock's time (less the 500 s) rather than the tests' one second a block:
// about 800 settlements fit in the window however fast they come.
const p = await startPayments({ secondsBehind: 500 });
process.once("exit", () => void p.stop());
await p.testClient.removeBlockTimestampInterval();

// An agent sold per message whose owner has a payout wallet, and whose webhook answers 200 at once
// (a local server, keep-alive); a rental of the same agent for the plain chat.
const { agent } = await makePayableAgent();
await db.agent.update({ where: { id: agent.id }, data: { pricePerMessage: PRICE } });
const rentalCode = (await makeRental(agent.id)).id.slice(0, 8);
const renter = await newRenter(p); // 1,000 USDC: about 47,000 answers
const network = `eip155:${p.publicClient.chain.id}` as const;
const payer = new x402Client()
  .register(network, new ExactEvmScheme(renter.account))
  .setSpendControls({ allowedAssets: [{ network, asset: p.e.token }] });

const message = JSON.stringify({ message: "What is 2 + 2?" });
const paidUrl = `http://localhost/api/v1/agents/${agent.id}/chat`;

// The route as the service serves it, called by the client's fetch; the paid retry is timed from
// its Request's construction to the handler's Response (its body already in memory).
let ip = uniqueIp();
let paidRetryMs: number | null = null;
const routeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const started = performance.now();
  const req = new Request(input, init);
  req.headers.set("x-forwarded-for", ip);
  const paid = req.headers.has("PAYMENT-SIGNATURE");
  const res = await paidChatRoute(req, { params: Promise.resolve({ agentId: agent.id }) });
  if (paid) paidRetryMs = performance.now() - started;
  return res;
}) as typeof fetch;
const pay = wrapFetchWithPayment(routeFetch, payer);

async function paidAnswer(): Promise<{ status: number; ms: number | null }> {
  ip = uniqueIp();
  paidRetryMs = null;
  const res = await pay(paidUrl, { method: "POST", headers: { "content-type": "application/json" }, body: message });
  await res.arrayBuffer();
  return { status: res.status, ms: paidRetryMs };
}

async function rentalChat(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const req = new Request("http://localhost/api/v1/chat", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": rentalCode, "x-forwarded-for": uniqueIp() },
    body: message,
  });
  const res = await rentalChatRoute(req);
  const ms = performance.now() - started;
  await res.arrayBuffer();
  return { status: res.status, ms };
}

const paid: number[] = [];
const plain: number[] = [];
const failures = new Map<string, number>();
const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
let firstBlock = 0n;
for (let i = 0; i < WARM_UP + SAMPLES; i++) {
  if (i === WARM_UP) firstBlock = await p.publicClient.getBlockNumber();
  const a = await paidAnswer();
  const b = await rentalChat();
  if (i < WARM_UP) continue;
  if (a.status === 200 && a.ms !== null) paid.push(a.ms);
  else fail(`paid answer: HTTP ${a.status}${a.ms === null ? " (no paid retry)" : ""}`);
  if (b.status === 200) plain.push(b.ms);
  else fail(`rental chat: HTTP ${b.status}`);
}
const blocks = (await p.publicClient.getBlockNumber()) - firstBlock;
const settled = await db.messagePayment.count({ where: { agentId: agent.id, status: "settled" } });
const chainOffset = Number((await p.publicClient.getBlock()).timestamp) - Date.now() / 1000;

const pct = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((q / 100) * xs.length))];
const ms = (x: number) => x.toFixed(2);
console.log(
  `\nx402 pay per answer, ${SAMPLES} sequential calls each after ${WARM_UP} of warm-up, route handlers in-process, anvil automine:`,
);
if (paid.length && plain.length) {
  console.table([
    { call: "paid answer: the paid retry (verify + webhook + settle)", "p50 ms": ms(pct(paid, 50)), "p99 ms": ms(pct(paid, 99)) },
    { call: "POST /api/v1/chat with a rental code", "p50 ms": ms(pct(plain, 50)), "p99 ms": ms(pct(plain, 99)) },
    {
      call: "added by x402",
      "p50 ms": ms(pct(paid, 50) - pct(plain, 50)),
      "p99 ms": ms(pct(paid, 99) - pct(plain, 99)),
    },
  ]);
  recordFigures({ x402_added_p50_ms: pct(paid, 50) - pct(plain, 50) });
} else {
  console.log("no successful samples of one of the two calls: nothing recorded");
}
console.log(
  `${paid.length} paid answers and ${plain.length} rental chats answered 200; ${settled} answers settled (warm-up included), ` +
    `${blocks} blocks mined during the samples; the chain's clock ${chainOffset.toFixed(0)} s from the wall clock at the end (within −600…+300 s)`,
);
// A paid answer's settlement looks for its receipt at once, then every 250 ms (settleMessagePayment's
// pollMs): the answers that missed it on the first look show as a tail of a quarter second.
console.log(`paid answers over 250 ms: ${paid.filter((x) => x > 250).length} of ${paid.length}`);
for (const [what, n] of failures) console.log(`  ${n} × ${what}`);

await p.stop();
await db.$disconnect();
await dropTestDatabase(DATABASE);
process.exit(0);
