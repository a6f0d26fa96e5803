// Builders for owner-surface tests: an account with a live API key, its agents, and requests
// to /api/public as an owner's script would send them.
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { createAgent } from "@/lib/agents/create-agent";
import { agentListingSchema, type AgentListingInput } from "@/lib/schemas/agent-listing";
import { makeOwner, uniqueIp } from "@/test/fixtures";

// Every test gets its own account and key, so the 30/min bucket of one never limits another.
export async function makeOwnerWithKey() {
  const owner = await makeOwner();
  const { apiKey, prefix } = await issueApiKey(owner.id);
  return { accountId: owner.id, apiKey, prefix };
}

export async function makeOwnerAgent(
  ownerId: string,
  options: { listing?: Partial<AgentListingInput>; webhook?: { url: string; token: string } } = {},
) {
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

export type OwnerRequest = {
  method?: string;
  key?: string;
  auth?: "x-api-key" | "bearer";
  ip?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};

export function ownerRequest(path: string, options: OwnerRequest = {}): Request {
  const headers: Record<string, string> = { "x-forwarded-for": options.ip ?? uniqueIp(), ...options.headers };
  if (options.key !== undefined) {
    if (options.auth === "x-api-key") headers["x-api-key"] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`http://localhost/api/public/${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
}

// The second argument Next.js passes to a handler of a dynamic route.
export const segment = (id: string) => ({ params: Promise.resolve({ id }) });
