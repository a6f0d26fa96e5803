import "server-only";
import { db } from "@/lib/db";
import type { BatchKind } from "@/lib/queue/qstash";

/**
 * Takes a batch for this delivery: true for the first delivery of the batch's id, false for every
 * later one (QStash delivers at least once: a duplicate after a lost acknowledgement, a retry of a
 * delivery that did its work but answered too late). One statement, so two deliveries at once
 * cannot both take it.
 */
export async function claimBatch(kind: BatchKind, id: string): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`
    INSERT INTO queue_batches (kind, id) VALUES (${kind}, ${id}) ON CONFLICT DO NOTHING RETURNING id`;
  return rows.length === 1;
}

// QStash retries a failed delivery for hours at most (3 retries by default, the last about half an
// hour after the first): a day covers every delivery of a batch.
const KEPT_FOR = "1 day";

/** Deletes claims older than a day; the health-check round calls it once per run. */
export async function forgetOldBatches(now: Date): Promise<void> {
  await db.$executeRaw`DELETE FROM queue_batches WHERE created_at < ${now}::timestamptz - ${KEPT_FOR}::interval`;
}
