import { z } from "zod";

// A batch as published to QStash and delivered to /api/queue/<kind> (lib/queue/dispatch-batches.ts):
// its id (also the deduplication id), the round it belongs to, the agents it checks, and how many
// checks it may have in flight (lower for a batch of one owner's host). At most 1,000 agents, the
// most a batch is ever cut to (lib/queue/cut-host-batches.ts).
const batch = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,120}$/, "must be a batch id"),
  // The round's time: the health checks' claim time, the probe's `now` (its minute is probed).
  round: z.iso.datetime(),
  agents: z.array(z.uuid()).min(1).max(1_000),
  concurrency: z.number().int().min(1).max(2_000),
});

export const healthCheckBatchSchema = batch;
export type HealthCheckBatch = z.infer<typeof healthCheckBatchSchema>;

export const probeBatchSchema = batch;
export type ProbeBatch = z.infer<typeof probeBatchSchema>;
