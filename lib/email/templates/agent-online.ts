import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { formatDateTime } from "@/lib/format/date-time";

export type AgentOnlineEmail = {
  agent: { id: string; name: string };
  check: { statusCode: number | null; latencyMs: number };
  checkedAt: Date;
};

// Sent once when a periodic health check brings an offline agent back.
export function agentOnlineEmail({ agent, check, checkedAt }: AgentOnlineEmail) {
  const url = agentDashboardUrl(agent.id);
  const intro = `Your agent "${agent.name}" passed its health check at ${formatDateTime(checkedAt)} (HTTP ${check.statusCode} in ${check.latencyMs} ms) and is available for new rentals again.`;
  const next = "Nothing to do. If its webhook fails a check again, the agent goes offline and you get another e-mail.";

  const text = [intro, "", next, "", `Dashboard: ${url}`].join("\n");
  const html = `<div style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(next)}</p>
<p><a href="${escapeHtml(url)}">Open ${escapeHtml(agent.name)} in your dashboard</a></p>
</div>`;
  return { subject: `Your agent "${agent.name}" is back online`, text, html };
}
