// POST /api/public/agents/{id}/connect — stores the webhook URL and token (encrypted) and sends
// a test health check: a 2xx reply makes the agent available, anything else offline. A listing's
// first connect also answers its webhook signing secret (whsec_…), once.
import { connectAgentWebhook } from "@/lib/agents/connect-agent-webhook";
import { loadAgentViews } from "@/lib/agents/load-agent-views";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { OWNER_BODY_MAX_BYTES, ownerMethodNotAllowed, ownerRoute } from "@/lib/http/routes/owner-route";
import { spendWebhookTest } from "@/lib/ratelimit/limit-action";
import { webhookConnectionSchema } from "@/lib/schemas/webhook-connection";

export const POST = ownerRoute<{ id: string }>(async ({ req, auth, params }) => {
  const { webhookUrl, webhookToken } = await parseJsonBody(req, webhookConnectionSchema, OWNER_BODY_MAX_BYTES);
  // Each connect sends a test request: the same webhook-test budgets as the dashboard's button.
  await spendWebhookTest(auth.accountId, params.id);
  const { agent, test, signingSecret } = await connectAgentWebhook(auth.accountId, params.id, {
    url: webhookUrl,
    token: webhookToken,
  });
  const [view] = await loadAgentViews([agent]);
  // The signing secret only when this connect created it: shown once, never readable again.
  return Response.json({ agent: view, test, ...(signingSecret ? { signingSecret } : {}) });
});

export const GET = ownerMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
