// POST /api/public/agents/{id}/connect — stores the webhook URL and token (encrypted) and sends
// a test health check: a 2xx reply makes the agent available, anything else offline, with the
// reason in words. Until a connect's test passes (that one included), the answer also carries the
// listing's webhook signing secret (whsec_…); after that, only a rotation shows one.
import { connectAgentWebhook } from "@/lib/agents/connect-agent-webhook";
import { loadAgentViews } from "@/lib/agents/load-agent-views";
import { describeWebhookFailure } from "@/lib/format/webhook-failure";
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
  // A failure in the dashboard's words beside its code: `error` is for programs, `reason` and
  // `nextStep` for the person reading the answer.
  const words = test.ok ? { reason: null, nextStep: null } : describeWebhookFailure(test);
  return Response.json({ agent: view, test: { ...test, ...words }, ...(signingSecret ? { signingSecret } : {}) });
});

export const GET = ownerMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
