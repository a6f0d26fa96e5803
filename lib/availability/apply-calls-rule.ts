import "server-only";
import { minuteIndex, minuteStart, minutesTotal } from "@/lib/availability/availability-terms";
import type { MinuteFacts } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** What the calls rule reads of a rental. */
export type CallsRuleRental = { id: string; startsAt: Date; endsAt: Date; callsCheckedUntil: number };

// A chat call failed "the same way" a probe fails when the renter got a 5xx: the webhook answered
// non-2xx (502), timed out (504), was unreachable or not connected (502/503). Refusals of the
// service's own (401, 404, 410, 413, 429) are not the agent's.
const FAILED = 500;
// A call is recorded when it finishes, up to the chat timeout (30 s) after it began: calls that
// finish this long after the rental's end are counted in its last minute.
const LAST_MINUTE_SLACK_MS = 60_000;

type MinuteCalls = { rentalId: string; minute: number; calls: number; failed: number };

/**
 * The rule on real chat calls (docs/availability.md), for every minute of each rental that has
 * ended by `now` and was not looked at before: a minute with calls is measured, and down when at
 * least half of its calls failed. Its calls are the rental's own and the agent's answers sold per
 * message in that minute (the same webhook, called by someone else). One grouped query for all the rentals. `settling`: the release
 * sweep closes the last minute of an ended rental at once (its record is final from then on), with
 * the calls finished by then; a reader waits LAST_MINUTE_SLACK_MS after the end.
 */
export async function applyCallsRule(
  rentals: CallsRuleRental[],
  now: Date,
  options: { client?: Prisma.TransactionClient; settling?: boolean } = {},
): Promise<MinuteFacts[]> {
  const client = options.client ?? db;
  const windows = rentals
    .map((r) => {
      const total = minutesTotal(r);
      // The last minute has ended, for this rule, only once the calls in flight at the rental's
      // end have finished: closed earlier (a read just after the end), their calls were never counted.
      const lastEnded = now.getTime() >= r.endsAt.getTime() + (options.settling ? 0 : LAST_MINUTE_SLACK_MS);
      const upTo = Math.min(lastEnded ? total : total - 1, Math.max(0, minuteIndex(r, now)));
      return { r, total, upTo };
    })
    .filter((w) => w.upTo > w.r.callsCheckedUntil);
  if (windows.length === 0) return [];
  const rows = await client.$queryRaw<MinuteCalls[]>`
    SELECT w.id::text AS "rentalId",
           least(w.last_minute, floor(extract(epoch FROM c.created_at - w.starts_at) / 60)::int) AS minute,
           count(*)::int AS calls, count(*) FILTER (WHERE c.status_code >= ${FAILED})::int AS failed
      FROM unnest(${windows.map((w) => w.r.id)}::uuid[], ${windows.map((w) => w.r.startsAt)}::timestamptz[],
                  ${windows.map((w) => minuteStart(w.r, w.r.callsCheckedUntil))}::timestamptz[],
                  ${windows.map((w) => (w.upTo === w.total ? new Date(w.r.endsAt.getTime() + LAST_MINUTE_SLACK_MS) : minuteStart(w.r, w.upTo)))}::timestamptz[],
                  ${windows.map((w) => w.total - 1)}::int[]) AS w(id, starts_at, from_at, to_at, last_minute)
      JOIN rentals r ON r.id = w.id
     CROSS JOIN LATERAL (
           SELECT created_at, status_code FROM chat_calls
            WHERE rental_id = w.id AND created_at >= w.from_at AND created_at < w.to_at
           UNION ALL
           -- The agent's answers sold per message meanwhile: real calls to the same webhook.
           SELECT created_at, status_code FROM chat_calls
            WHERE agent_id = r.agent_id AND rental_id IS NULL AND created_at >= w.from_at AND created_at < w.to_at
         ) c
     GROUP BY 1, 2`;
  const facts = new Map<string, MinuteFacts>(
    windows.map((w) => [w.r.id, { rentalId: w.r.id, measured: [], down: [], callsCheckedUntil: w.upTo }]),
  );
  for (const row of rows) {
    const fact = facts.get(row.rentalId)!;
    fact.measured.push(row.minute);
    if (row.failed * 2 >= row.calls) fact.down.push(row.minute);
  }
  return [...facts.values()];
}
