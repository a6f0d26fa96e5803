import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import { type Limiters, limiters } from "@/lib/ratelimit/policies";
import type { RateDecision } from "@/lib/ratelimit/rate-limiter";
import { reserve } from "@/lib/ratelimit/with-failure-budgets";

// What a refused dashboard action hands its form (a FormState): the reason and when to retry.
export type ActionRefusal = { ok: false; message: string; fieldErrors: Record<string, string> };

// The one rate limit of dashboard server actions, called by their wrapper (lib/actions/action.ts,
// after the session and the form's check): 30 a minute per account, and for a webhook test
// connection also the webhook-test budgets (spendWebhookTest). Returns null when the action may
// go ahead.
export async function limitAction(
  accountId: string,
  options: { webhookTestOf?: string } = {},
  buckets: Limiters = limiters(),
): Promise<ActionRefusal | null> {
  const decision = await buckets.dashboardAction.limit(accountId);
  if (!decision.allowed) return refusal(rateLimitError(decision, "Too many changes in a short time (at most 30 a minute)"));
  if (options.webhookTestOf !== undefined) {
    try {
      await spendWebhookTest(accountId, options.webhookTestOf, buckets);
    } catch (error) {
      if (error instanceof ApiError) return refusal(error);
      throw error;
    }
  }
  return null;
}

// A test connection sends a request to a URL the owner chose; unlimited, it would make the
// service an HTTP reflector. Both the dashboard and POST /public/agents/{id}/connect spend from
// the account's budget (10 per 10 minutes) and the listing's (5 in a row, then one a minute).
// Throws the 429 when either is empty; the other then gets its token back.
export async function spendWebhookTest(accountId: string, agentId: string, buckets: Limiters = limiters()): Promise<void> {
  const refusedWith = (reason: string) => (d: RateDecision) => rateLimitError(d, reason);
  await reserve([
    {
      limiter: buckets.webhookTestAccount,
      key: accountId,
      refused: refusedWith("Too many webhook tests from this account (at most 10 every 10 minutes)"),
    },
    // Keyed with the account too: another account naming this agent's id spends its own tokens.
    {
      limiter: buckets.webhookTestAgent,
      key: `${accountId}:${agentId}`,
      refused: refusedWith("Too many webhook tests of this listing (at most 5 in a row, then one a minute)"),
    },
  ]);
}

function refusal(error: ApiError): ActionRefusal {
  return { ok: false, message: error.message, fieldErrors: {} };
}
