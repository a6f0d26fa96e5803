import "server-only";
import { db } from "@/lib/db";
import type { HealthResult } from "@/lib/webhooks/check-webhook-health";

export type HealthTrigger = "schedule" | "connect";

// Every check is kept (time, outcome, latency): uptime and the owner's stats are computed from them.
export async function recordHealthCheck(agentId: string, result: HealthResult, trigger: HealthTrigger): Promise<void> {
  await db.healthCheck.create({
    data: {
      agentId,
      ok: result.ok,
      statusCode: result.statusCode,
      error: result.error,
      latencyMs: result.latencyMs,
      trigger,
    },
  });
}
