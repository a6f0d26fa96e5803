// POST /a2a — the marketplace's A2A endpoint: the find-agents skill, without a rental code (the
// 60/min bucket per client IP); answers a message with the matching listings (docs/a2a.md).
import { InMemoryTaskStore } from "@a2a-js/sdk/server";
import { marketplaceAgentCard } from "@/lib/a2a/agent-cards";
import { MarketplaceAgentExecutor } from "@/lib/a2a/marketplace-agent-executor";
import { serveA2a } from "@/lib/a2a/serve-a2a";
import { appUrl } from "@/lib/env";
import { a2aMethodNotAllowed, a2aPreflight, a2aRoute } from "@/lib/http/routes/a2a-route";

// The answer is a message, never a task: the per-request store stays empty, so a task read here is
// not found.
export const POST = a2aRoute(async ({ req }) =>
  serveA2a(req, {
    card: marketplaceAgentCard(appUrl()),
    executor: new MarketplaceAgentExecutor(appUrl()),
    taskStore: new InMemoryTaskStore(),
    textRequired: false,
  }),
);

export const OPTIONS = a2aPreflight;
export const GET = a2aMethodNotAllowed;
export const PUT = a2aMethodNotAllowed;
export const PATCH = a2aMethodNotAllowed;
export const DELETE = a2aMethodNotAllowed;
