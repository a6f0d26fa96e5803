// The world the fuzzed requests land in: real rows (owner key pools, agents with a working, a
// failing, no and undecryptable webhook, rentals in every state), a real webhook, a signed-in
// session and one real payment on a private anvil chain.
import { randomBytes } from "node:crypto";
import * as CHECKOUT_QUOTE from "@/app/api/checkout/quote/route";
import { sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { createSession } from "@/lib/auth/create-session";
import { quoteArgs } from "@/lib/checkout/checkout-api";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { makePayableAgent, newRenter, pay, startPayments } from "@/test/chain/payments-harness";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";

export const ORIGIN = appUrl();

export type World = {
  hookUrl: string;
  closedUrl: string;
  codes: Record<"active" | "failing" | "noWebhook" | "brokenCredentials" | "expired" | "cancelled", string>;
  owners: Record<string, { apiKey: string; agentId: string }[]>;
  otherAgentId: string;
  accountId: string;
  /** A signed-in session's cookie, shared by every route that does not end sessions. */
  sessionCookie: string;
  payableAgentId: string;
  paidTxHash: string;
  paidClaimSecret: string;
};

export async function buildWorld(): Promise<{ world: World; close: () => Promise<void> }> {
  const payments = await startPayments();
  const hook = await startWebhook((req, res) => {
    if (req.url.includes("fail") || req.body.includes('"fail"')) return res.writeHead(500).end("down");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: req.body.length }));
  });
  const token = randomBytes(32).toString("base64url");
  const failingUrl = hook.url.replace("/hooks/agent", "/fail");
  const closedUrl = "http://127.0.0.1:9/hooks/agent";

  // Owner keys: a pool per owner route, so the 30/min per key bucket rarely answers first.
  const ownerPool = async () =>
    Promise.all(
      Array.from({ length: 30 }, async () => {
        const { accountId, apiKey } = await makeOwnerWithKey();
        const agent = await makeOwnerAgent(accountId, { webhook: { url: hook.url, token } });
        // A rental on record: DELETE answers 409 instead of emptying the pool in the first cases.
        await makeRental(agent.id);
        return { apiKey, agentId: agent.id };
      }),
    );
  const owners = {
    agents: await ownerPool(),
    agent: await ownerPool(),
    connect: await ownerPool(),
    stats: await ownerPool(),
  };

  const { accountId } = await makeOwnerWithKey();
  const renterAgent = await makeOwnerAgent(accountId, { webhook: { url: hook.url, token } });
  const failingAgent = await makeOwnerAgent(accountId, { webhook: { url: failingUrl, token } });
  const bareAgent = await makeOwnerAgent(accountId);
  // Odd data: ciphertexts that do not decrypt (another row's, refused by authenticated encryption).
  const brokenAgent = await makeOwnerAgent(accountId);
  await db.agent.update({
    where: { id: brokenAgent.id },
    data: sealWebhookCredentials(renterAgent.id, { url: hook.url, token }),
  });
  const code = (rental: { id: string }) => rental.id.slice(0, 8);
  const codes = {
    active: code(await makeRental(renterAgent.id)),
    failing: code(await makeRental(failingAgent.id)),
    noWebhook: code(await makeRental(bareAgent.id)),
    brokenCredentials: code(await makeRental(brokenAgent.id)),
    expired: code(await makeRental(renterAgent.id, { startsInSeconds: -7_200, endsInSeconds: -60 })),
    cancelled: code(await makeRental(renterAgent.id, { status: "cancelled" })),
  };

  // One real payment, so confirm meets a hash the chain knows (with and without its claim secret).
  const { agent: payable } = await makePayableAgent();
  const renter = await newRenter(payments);
  const quoted = await CHECKOUT_QUOTE.POST(
    jsonRequest("/api/checkout/quote", {
      agentId: payable.id,
      durationType: "hour",
      channel: "API",
      renter: renter.address,
    }),
  );
  const q = await quoted.json();
  if (quoted.status !== 201) throw new Error(`quote failed: ${quoted.status} ${JSON.stringify(q)}`);
  const quote = quoteArgs(q.quote);
  const paidTxHash = (await pay(payments, renter, { quote, signature: q.signature })).transactionHash;

  const world: World = {
    hookUrl: hook.url,
    closedUrl,
    codes,
    owners,
    otherAgentId: renterAgent.id,
    accountId,
    sessionCookie: (await createSession(accountId, { method: "email", userAgent: "fuzz" })).cookie.split(";")[0],
    payableAgentId: payable.id,
    paidTxHash,
    paidClaimSecret: q.claimSecret,
  };
  return { world, close: async () => Promise.all([hook.close(), payments.stop()]).then(() => undefined) };
}

function jsonRequest(path: string, body: unknown): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
    body: JSON.stringify(body),
  });
}
