// Builders for integration tests: real rows through the real services (owners, keys, agents,
// rentals) and real local webhooks. Requests to the API surfaces: test/api-requests.ts.
import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { createAgent } from "@/lib/agents/create-agent";
import { db } from "@/lib/db";
import { createUnpaidRental, type UnpaidRentalInput } from "@/lib/rentals/create-unpaid-rental";
import { type AgentListingInput, agentListingSchema } from "@/lib/schemas/agent-listing";

export async function makeOwner() {
  return db.account.create({ data: { email: `owner-${randomBytes(6).toString("hex")}@example.com` } });
}

// Every test gets its own account and key, so the 30/min bucket of one never limits another.
export async function makeOwnerWithKey() {
  const owner = await makeOwner();
  const { apiKey, prefix } = await issueApiKey(owner.id);
  return { accountId: owner.id, apiKey, prefix };
}

type AgentOptions = { listing?: Partial<AgentListingInput>; webhook?: { url: string; token: string; signingSecret?: string } };

/** An available agent of the given owner (listing defaults overridable). */
export async function makeOwnerAgent(ownerId: string, options: AgentOptions = {}) {
  const listing = agentListingSchema.parse({
    name: "Owner Agent",
    description: "Does owner things.",
    category: "coding",
    channels: ["API"],
    pricePerHour: 2,
    pricePerDay: 10,
    pricePerMonth: 100,
    ...options.listing,
  });
  return createAgent(ownerId, listing, { status: "available", webhook: options.webhook });
}

/** An available agent of a new owner, on the API and Telegram. */
export async function makeAgent(options: AgentOptions = {}) {
  const owner = await makeOwner();
  const listing = {
    name: "Test Agent",
    description: "Answers test questions.",
    category: "other",
    channels: ["API", "Telegram"],
    ...options.listing,
  };
  return makeOwnerAgent(owner.id, { ...options, listing: listing as Partial<AgentListingInput> });
}

export async function makeRental(agentId: string, overrides: Partial<UnpaidRentalInput> = {}) {
  return createUnpaidRental({
    agentId,
    durationType: "day",
    channel: "API",
    status: "active",
    startsInSeconds: 0,
    ...overrides,
  });
}

// A fresh documentation-range address per call, so rate-limit buckets never collide.
export function uniqueIp(): string {
  const group = () => randomInt(0, 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

export type ReceivedRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

// A real HTTP server standing in for an owner's webhook.
export async function startWebhook(reply: (req: ReceivedRequest, res: ServerResponse) => void) {
  const received: ReceivedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    received.push(request);
    reply(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/agent`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The second argument Next.js passes to a handler of a dynamic route.
export const segment = (id: string) => ({ params: Promise.resolve({ id }) });
