import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { env } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";

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
  const what = describeFailure(failure);
  const intro = `Your agent "${agent.name}" failed its health check at ${formatDateTime(checkedAt)} and is now offline: new rentals are blocked until its webhook answers again.`;
  const rule = `A healthy webhook answers the health check (a POST with the header "X-Health-Check: true") with a 2xx status within ${seconds} seconds.`;
  const steps = [
    "Check that the webhook is running, reachable from the internet, and accepts the token you configured.",
    'Once it is fixed, open the agent in your dashboard and press "Test connection": a 2xx answer puts the agent back online at once.',
  ];
  const later = "Otherwise the service checks again every 15 minutes and puts the agent back online after the first check that succeeds.";

  const text = [
    intro,
    "",
    `What failed: ${what}`,
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
<p><strong>What failed:</strong> ${escapeHtml(what)}<br>${escapeHtml(rule)}</p>
<p><strong>What to do:</strong></p>
<ol>${steps.map((s) => `<li>${escapeHtml(s)}</li>`).join("")}</ol>
<p><a href="${escapeHtml(url)}">Open ${escapeHtml(agent.name)} in your dashboard</a></p>
<p style="color: #555">${escapeHtml(later)}</p>
</div>`;
  return { subject: `Your agent "${agent.name}" is offline: its webhook failed a health check`, text, html };
}

function describeFailure({ statusCode, error }: AgentOfflineEmail["failure"]): string {
  if (statusCode !== null && statusCode >= 300 && statusCode < 400) {
    return `your webhook answered with a redirect (HTTP ${statusCode}); redirects are not followed.`;
  }
  if (statusCode !== null) return `your webhook answered HTTP ${statusCode}.`;
  return `no usable answer from your webhook (${error ?? "network error"}).`;
}
