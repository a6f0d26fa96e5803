import "server-only";
import { db } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { agentOfflineEmail } from "@/lib/email/templates/agent-offline";
import { agentOnlineEmail } from "@/lib/email/templates/agent-online";
import type { AgentStatus } from "@/lib/generated/prisma/enums";
import type { HealthResult } from "@/lib/webhooks/check-webhook-health";

/** What the outcome of a check needs to know of its agent, as read before the check. */
export type HealthOutcomeAgent = { id: string; name: string; status: AgentStatus; ownerEmail: string | null };

export type HealthOutcomeMove = "wentOffline" | "cameOnline" | null;

/**
 * What one health check does to its listing (docs/webhooks.md), the same for the 15-minute sweep
 * and the check before a checkout: an `available` agent that failed goes `offline`, an `offline`
 * one that passed comes back, and the owner is e-mailed once per transition (queued for the sender). `at` makes the
 * e-mail's idempotency key: a time unique to this check of this agent (the sweep's claim time,
 * the checkout's check time), so a retried send is the same e-mail.
 */
export async function applyHealthOutcome(
  agent: HealthOutcomeAgent,
  result: HealthResult,
  checkedAt: Date,
  at: Date,
): Promise<HealthOutcomeMove> {
  if (!result.ok && agent.status === "available" && (await transition(agent.id, "available", "offline"))) {
    await notifyOwner(agent, "agent-offline", at, agentOfflineEmail({ agent, failure: result, checkedAt }));
    return "wentOffline";
  }
  if (result.ok && agent.status === "offline" && (await transition(agent.id, "offline", "available"))) {
    await notifyOwner(agent, "agent-online", at, agentOnlineEmail({ agent, check: result, checkedAt }));
    return "cameOnline";
  }
  return null;
}

// Conditional, so that of two writers only the one that really moves the agent sends the e-mail.
async function transition(agentId: string, from: AgentStatus, to: AgentStatus): Promise<boolean> {
  const { count } = await db.agent.updateMany({ where: { id: agentId, status: from }, data: { status: to } });
  return count === 1;
}

async function notifyOwner(
  agent: HealthOutcomeAgent,
  event: "agent-offline" | "agent-online",
  at: Date,
  email: { subject: string; text: string; html: string },
): Promise<void> {
  if (!agent.ownerEmail) {
    console.warn(`[health-checks] ${event} for agent ${agent.id}: its owner has no e-mail address, so none was sent.`);
    return;
  }
  // Queued for the sender: a sweep that takes 600 agents offline at once must not wait for Resend.
  await queueEmail({ to: agent.ownerEmail, ...email, idempotencyKey: `${event}:${agent.id}:${at.toISOString()}` });
}
