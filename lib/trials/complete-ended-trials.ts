import "server-only";
import { db } from "@/lib/db";

/**
 * Free trials past their end (30 days after they started, docs/trials.md) become `completed`, as a
 * paid rental does once released, so /v1/status says so. Quietly: no "rental ended" e-mail with the
 * uptime and refunds that never applied to them. Run by the release sweep each minute.
 */
export async function completeEndedTrials(now: Date): Promise<number> {
  const { count } = await db.rental.updateMany({
    where: { trial: true, status: "active", endsAt: { lte: now } },
    data: { status: "completed" },
  });
  return count;
}
