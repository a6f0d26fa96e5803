// POST /api/queue/health-checks — one batch of a health-check round, delivered by QStash
// (docs/operations.md, "Batches and the queue"): verified, then its agents checked and recorded.
import { runHealthCheckBatch } from "@/lib/agents/run-health-check-batch";
import { env } from "@/lib/env";
import { queueRoute } from "@/lib/http/routes/queue-route";
import { Slots } from "@/lib/queue/slots";
import { healthCheckBatchSchema } from "@/lib/schemas/queue-batches";

// Vercel's longest function time. A batch is cut to finish within 60 s with every check at its
// full timeout; its checks stop starting when one could not finish inside 250 s.
export const maxDuration = 300;
const BUDGET_MS = 250_000;

export const { POST, GET, PUT, PATCH, DELETE } = queueRoute("health-checks", healthCheckBatchSchema, (batch) => {
  const started = performance.now();
  return runHealthCheckBatch(batch, {
    slots: new Slots(env.HEALTH_CHECK_CONCURRENCY),
    canStart: () => performance.now() - started + 2 * env.HEALTH_CHECK_TIMEOUT_MS <= BUDGET_MS,
  });
});
