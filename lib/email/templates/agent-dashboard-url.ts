import "server-only";
import { appUrl } from "@/lib/env";

// Where an owner manages one agent (webhook, test connection): the link every agent e-mail ends with.
export function agentDashboardUrl(agentId: string): string {
  return `${appUrl()}/dashboard/agents/${encodeURIComponent(agentId)}`;
}
