import "server-only";
import { type BatchKind, qstashClient, queueConfigured, queueDestination } from "@/lib/queue/qstash";
import { Slots } from "@/lib/queue/slots";

/** A batch to run: its body (delivered as JSON; `id` is also its deduplication id) and its flow-control key. */
export type QueueBatch<B extends { id: string }> = {
  body: B;
  /** A batch of one owner's host: QStash runs one batch of the key at a time. null: a shared batch. */
  hostKey: string | null;
};

export type BatchContext = {
  /** Checks in flight: shared by every batch of an in-process round, the batch's own when delivered. */
  slots: Slots;
  /** Called by the batch once its checks have asked for their slots (the in-process queue then knows whether to start another). */
  onStarted?: () => void;
};

export type Transport = "qstash" | "in-process";

export type DispatchedToQueue = {
  transport: "qstash";
  /** Batches QStash accepted, of which `deduplicated` it already had (a repeated publish). */
  published: number;
  deduplicated: number;
  /** Batches QStash did not accept (logged): their agents are the caller's to give back. */
  failed: QueueBatch<{ id: string }>[];
};
export type RanInProcess<R> = { transport: "in-process"; results: R[] };

// One of an owner's host's batches at a time: with its checks at most hostConcurrency at once
// (lib/queue/cut-host-batches.ts), the host sees no more than that, however many listings it has.
const HOST_PARALLELISM = 1;
// Shared batches delivered at once per kind. Each delivery is a function run with its own
// database pool (DATABASE_POOL_MAX): 20 at once is 100 connections at the default pool, what a
// pooler (PgBouncer, a provider's pooled endpoint) takes without trouble.
const SHARED_PARALLELISM = 20;
// Publishing is one HTTPS request a batch; a few at once keep a 400-batch round to a second or two.
const PUBLISH_CONCURRENCY = 8;

/**
 * Runs a round's batches: published to QStash when it is configured (one publishJSON per batch to
 * this app's /api/queue/<kind>, deduplicated by the batch's id, flow-controlled per owner host),
 * otherwise run here with `run`, in the order given, with at most `concurrency` checks in flight
 * across all of them (docs/operations.md, "Batches and the queue"). In-process, a batch starts
 * whenever a check slot would otherwise sit idle, so one batch's slow tail overlaps the next
 * batch's work; flow-control keys need no enforcing there, the round's slots bound everything.
 */
export async function dispatchBatches<B extends { id: string }, R>(
  kind: BatchKind,
  batches: QueueBatch<B>[],
  inProcess: { run: (body: B, context: BatchContext) => Promise<R>; concurrency: number },
  transport: Transport = queueConfigured() ? "qstash" : "in-process",
): Promise<DispatchedToQueue | RanInProcess<R>> {
  if (transport === "qstash") return publishBatches(kind, batches);
  return { transport: "in-process", results: await runInProcess(batches, inProcess.run, inProcess.concurrency) };
}

async function publishBatches<B extends { id: string }>(kind: BatchKind, batches: QueueBatch<B>[]): Promise<DispatchedToQueue> {
  const result: DispatchedToQueue = { transport: "qstash", published: 0, deduplicated: 0, failed: [] };
  const url = queueDestination(kind);
  let next = 0;
  const publisher = async () => {
    for (let i = next++; i < batches.length; i = next++) {
      const batch = batches[i];
      try {
        const answer = await qstashClient().publishJSON({
          url,
          body: batch.body,
          deduplicationId: batch.body.id,
          flowControl: batch.hostKey
            ? { key: batch.hostKey, parallelism: HOST_PARALLELISM }
            : { key: kind, parallelism: SHARED_PARALLELISM },
        });
        result.published++;
        if ((answer as { deduplicated?: boolean }).deduplicated) result.deduplicated++;
      } catch (error) {
        result.failed.push(batch);
        console.error(
          `[queue] publishing ${kind} batch ${batch.body.id} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUBLISH_CONCURRENCY, batches.length) }, publisher));
  return result;
}

async function runInProcess<B extends { id: string }, R>(
  batches: QueueBatch<B>[],
  run: (body: B, context: BatchContext) => Promise<R>,
  concurrency: number,
): Promise<R[]> {
  const slots = new Slots(concurrency);
  const results: R[] = new Array(batches.length);
  const running: Promise<void>[] = [];
  for (const [i, batch] of batches.entries()) {
    await slots.whenFree();
    let started!: () => void;
    const starting = new Promise<void>((resolve) => (started = resolve));
    running.push(
      run(batch.body, { slots, onStarted: started })
        .then((result) => {
          results[i] = result;
        })
        .finally(started),
    );
    // Until the batch has asked for its slots, the slots look free: wait, or every batch would start at once.
    await starting;
  }
  const settled = await Promise.allSettled(running);
  const failure = settled.find((s) => s.status === "rejected");
  if (failure) throw failure.reason;
  return results;
}
