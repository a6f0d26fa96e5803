// Builders for integration tests: real rows through the real services, real local webhooks.
import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAgent } from "@/lib/agents/create-agent";
import { db } from "@/lib/db";
import { createUnpaidRental, type UnpaidRentalInput } from "@/lib/rentals/create-unpaid-rental";
import { agentListingSchema, type AgentListingInput } from "@/lib/schemas/agent-listing";

export async function makeOwner() {
  return db.account.create({ data: { email: `owner-${randomBytes(6).toString("hex")}@example.com` } });
}

export async function makeAgent(options: { webhook?: { url: string; token: string }; listing?: Partial<AgentListingInput> } = {}) {
  const owner = await makeOwner();
  const listing = agentListingSchema.parse({
    name: "Test Agent",
    description: "Answers test questions.",
    category: "other",
    channels: ["API", "Telegram"],
    pricePerHour: 2,
    pricePerDay: 10,
    pricePerMonth: 100,
    ...options.listing,
  });
  return createAgent(owner.id, listing, { status: "available", webhook: options.webhook });
}

export async function makeRental(agentId: string, overrides: Partial<UnpaidRentalInput> = {}) {
  return createUnpaidRental({ agentId, durationType: "day", channel: "API", status: "active", startsInSeconds: 0, ...overrides });
}

// A fresh documentation-range address per call, so rate-limit buckets never collide.
export function uniqueIp(): string {
  const group = () => randomInt(0, 0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::${group()}`;
}

export type RenterRequest = {
  method?: string;
  code?: string;
  auth?: "x-api-key" | "bearer";
  ip?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};

export function renterRequest(path: string, options: RenterRequest = {}): Request {
  const headers: Record<string, string> = { "x-forwarded-for": options.ip ?? uniqueIp(), ...options.headers };
  if (options.code !== undefined) {
    if (options.auth === "bearer") headers.authorization = `Bearer ${options.code}`;
    else headers["x-api-key"] = options.code;
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`http://localhost/api/v1/${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
}

export type ReceivedRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

// A real HTTP server standing in for an owner's webhook.
export async function startWebhook(reply: (req: ReceivedRequest, res: ServerResponse) => void) {
  const received: ReceivedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
    received.push(request);
    reply(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/agent`,
    port,
    received,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
