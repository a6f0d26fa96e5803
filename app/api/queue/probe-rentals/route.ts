// POST /api/queue/probe-rentals — one batch of a per-minute probe round, delivered by QStash
// (docs/availability.md): verified, then its agents probed and their rentals' minute recorded.
import { probeRentalBatch } from "@/lib/availability/probe-rental-batch";
import { env } from "@/lib/env";
import { queueRoute } from "@/lib/http/routes/queue-route";
import { Slots } from "@/lib/queue/slots";
import { probeBatchSchema } from "@/lib/schemas/queue-batches";

// A batch is cut to finish within 30 s with every probe at its full timeout (10 s at most).
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = queueRoute("probe-rentals", probeBatchSchema, (batch) =>
  probeRentalBatch(batch, { slots: new Slots(env.PROBE_CONCURRENCY), timeoutMs: Math.min(env.HEALTH_CHECK_TIMEOUT_MS, 10_000) }),
);
