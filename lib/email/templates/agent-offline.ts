import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { env } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";
import { describeWebhookFailure } from "@/lib/format/webhook-failure";

export type AgentOfflineEmail = {
  agent: { id: string; name: string };
  /** What the failed check saw: an HTTP status, or a network error (never a URL or token). */
  failure: { statusCode: number | null; error: string | null };
  checkedAt: Date;
};

// Sent once when a periodic health check takes an available agent offline.
export function agentOfflineEmail({ agent, failure, checkedAt }: AgentOfflineEmail) {
  const url = agentDashboardUrl(agent.id);
  const seconds = Math.round(env.HEALTH_CHECK_TIMEOUT_MS / 1000);
  // In the words of the dashboard's Test connection and delivery log (lib/format/webhook-failure.ts).
  const { reason, nextStep } = describeWebhookFailure(failure);
  const intro = `Your agent "${agent.name}" failed its health check at ${formatDateTime(checkedAt)} and is now offline: new rentals are blocked until its webhook answers again.`;
  const rule = `A healthy webhook answers the health check (a POST with the header "X-Health-Check: true") with a 2xx status within ${seconds} seconds.`;
  const steps = [
    nextStep,
    'Once it is fixed, open the agent in your dashboard and press "Test connection": a 2xx answer puts the agent back online at once.',
  ];
  // The recorded code too when no HTTP status came back, for whoever debugs the webhook.
  const detail = failure.statusCode === null && failure.error ? `Detail for developers: ${failure.error}` : null;
  const later = "Otherwise the service checks again every 15 minutes and puts the agent back online after the first check that succeeds.";

  const text = [
    intro,
    "",
    `What failed: ${reason}`,
    ...(detail ? [detail] : []),
    rule,
    "",
    "What to do:",
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    `   ${url}`,
    "",
    later,
  ].join("\n");
  const html = `<div style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>${escapeHtml(intro)}</p>
<p><strong>What failed:</strong> ${escapeHtml(reason)}<br>${detail ? `${escapeHtml(detail)}<br>` : ""}${escapeHtml(rule)}</p>
<p><strong>What to do:</strong></p>
<ol>${steps.map((s) => `<li>${escapeHtml(s)}</li>`).join("")}</ol>
<p><a href="${escapeHtml(url)}">Open ${escapeHtml(agent.name)} in your dashboard</a></p>
<p style="color: #555">${escapeHtml(later)}</p>
</div>`;
  return { subject: `Your agent "${agent.name}" is offline: its webhook failed a health check`, text, html };
}
