// The built-in demo of `npm run dev`: an owner with a fresh API key, an "Echo Agent" whose
// webhook is the local echo agent, and an active month-long rental. Safe to run on every start.
// On the embedded chain the rental is paid like any other (quote → permit → escrow → confirm).
import { type Address, type Hex, TransactionReceiptNotFoundError } from "viem";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { createAgent } from "@/lib/agents/create-agent";
import { sealWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { chainClients } from "@/lib/chain/chain-clients";
import { checkoutWithKey } from "@/lib/chain/checkout-with-key";
import { db } from "@/lib/db";
import { createUnpaidRental } from "@/lib/rentals/create-unpaid-rental";
import { agentListingSchema } from "@/lib/schemas/agent-listing";

const DEMO_EMAIL = "demo-owner@example.com";
const DEMO_AGENT = "Echo Agent";
const DEMO_KEY_LABEL = "demo (npm run dev)";

/** The embedded chain's demo wallets: the owner's payout address and the renter who pays. */
export type DemoChain = { ownerWallet: Address; renterKey: Hex };

export async function seedDemo(webhook: WebhookCredentials, chain?: DemoChain) {
  let owner = (await db.account.findUnique({ where: { email: DEMO_EMAIL } })) ?? (await db.account.create({ data: { email: DEMO_EMAIL } }));
  if (chain && owner.walletAddress !== chain.ownerWallet.toLowerCase()) {
    // A quote needs the owner's payout wallet.
    const wallet = chain.ownerWallet.toLowerCase();
    const holder = await db.account.findUnique({ where: { walletAddress: wallet } });
    if (holder && holder.id !== owner.id) {
      throw new Error(`The demo owner's wallet ${wallet} already belongs to account ${holder.id}; delete .data/ to start afresh.`);
    }
    owner = await db.account.update({ where: { id: owner.id }, data: { walletAddress: wallet } });
  }

  // A key is shown only once, so each start revokes the previous demo key and prints a new one.
  await db.apiKey.updateMany({
    where: { accountId: owner.id, label: DEMO_KEY_LABEL, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const { apiKey } = await issueApiKey(owner.id, DEMO_KEY_LABEL);

  let agent = await db.agent.findFirst({ where: { ownerId: owner.id, name: DEMO_AGENT } });
  if (agent) {
    // The echo agent's port and token change per start.
    agent = await db.agent.update({
      where: { id: agent.id },
      data: { status: "available", ...sealWebhookCredentials(agent.id, webhook) },
    });
  } else {
    const listing = agentListingSchema.parse({
      name: DEMO_AGENT,
      description: "Replies with whatever you send it. Handy for trying the API.",
      category: "other",
      channels: ["API", "Telegram"],
      pricePerHour: 1,
      pricePerDay: 5,
      pricePerMonth: 50,
    });
    agent = await createAgent(owner.id, listing, { status: "available", webhook });
  }

  // The last demo rental is reused while it has more than an hour left (and, on a chain, was paid
  // on this one: a reset chain no longer knows its transaction).
  const inAnHour = new Date(Date.now() + 3_600_000);
  const candidates = await db.rental.findMany({
    where: {
      agentId: agent.id,
      status: "active",
      startsAt: { lte: new Date() },
      endsAt: { gt: inAnHour },
      ...(chain ? { createTxHash: { not: null } } : {}),
    },
    orderBy: { endsAt: "desc" },
    take: 5,
  });
  let rental: { id: string } | undefined;
  for (const candidate of candidates) {
    if (!chain || (await paidOnThisChain(candidate.createTxHash as Hex))) {
      rental = candidate;
      break;
    }
  }
  rental ??= chain
    ? await checkoutWithKey({
        agentId: agent.id,
        durationType: "month",
        channel: "API",
        renterKey: chain.renterKey,
        permit: true,
      })
    : await createUnpaidRental({
        agentId: agent.id,
        durationType: "month",
        channel: "API",
        status: "active",
        startsInSeconds: 0,
      });

  return { accountId: owner.id, email: DEMO_EMAIL, apiKey, agentId: agent.id, rentalId: rental.id, code: rental.id.slice(0, 8) };
}

// A successful transaction to this escrow that the current chain has a receipt for.
async function paidOnThisChain(hash: Hex): Promise<boolean> {
  const { publicClient, config } = chainClients();
  try {
    const receipt = await publicClient.getTransactionReceipt({ hash });
    return receipt.status === "success" && receipt.to?.toLowerCase() === config.escrow.toLowerCase();
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return false;
    throw error;
  }
}

/**
 * After the embedded chain was deployed afresh (reset, or rebuilt contracts), what the database
 * knows of the earlier deployment is void: the event reader's cursor (it would wait for the new
 * chain to reach the old block height), the operator's release transactions (their nonces), and
 * rentals paid there (the release sweep would retry them forever). Returns the rentals cancelled.
 */
export async function forgetEarlierDeployment(operator: Address): Promise<number> {
  await db.chainCursor.deleteMany({});
  await db.chainTransaction.deleteMany({ where: { fromAddress: operator.toLowerCase() } });
  const { count } = await db.rental.updateMany({
    where: { status: { in: ["active", "disputed"] }, createTxHash: { not: null } },
    data: { status: "cancelled" },
  });
  return count;
}
