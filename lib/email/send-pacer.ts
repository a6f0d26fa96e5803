import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";

/**
 * A provider's rate limit, kept by every server together: one row in `send_pacers` holds the next
 * free send slot, and each send takes a slot `intervalMs` after the last one taken (or now, if that
 * is later). Slots are handed out by one atomic statement, so servers and runs at once never take
 * the same one, and sends started at their slots never exceed `1000 / intervalMs` a second in any
 * one-second window. A 429 pushes the next slot to the provider's Retry-After for everybody.
 */
export type SendPacer = { name: string; intervalMs: number };

/** The sender's time: `now` and a wait until a given time. Tests pass a clock that jumps. */
export type SendClock = { now(): Date; sleepUntil(time: Date): Promise<void> };

export const realClock: SendClock = {
  now: () => new Date(),
  sleepUntil: (time) => new Promise((resolve) => setTimeout(resolve, Math.max(0, time.getTime() - Date.now()))),
};

/**
 * Resend's limit is per team, so the pacer is per API key (its hash names the row: never the key).
 * The interval is rounded up to the millisecond, so 3 a second never lets a fourth into a second.
 */
export function resendPacer(apiKey: string, ratePerSecond: number): SendPacer {
  const hash = createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
  return { name: `resend:${hash}`, intervalMs: Math.ceil(1000 / ratePerSecond) };
}

/**
 * Takes the next free slot at or after `now`, if it is no later than `notAfter`: its time. Null,
 * with nothing taken, when the next slot is later than that (the queue holds the next seconds, or
 * the provider asked for a pause).
 */
export async function takeSendSlot(pacer: SendPacer, now: Date, notAfter: Date): Promise<Date | null> {
  if (now > notAfter) return null;
  const rows = await db.$queryRaw<{ slot: Date }[]>`
    INSERT INTO send_pacers AS p (name, next_slot_at)
    VALUES (${pacer.name}, ${now}::timestamptz + ${pacer.intervalMs} * interval '1 millisecond')
    ON CONFLICT (name) DO UPDATE
      SET next_slot_at = GREATEST(p.next_slot_at, ${now}::timestamptz) + ${pacer.intervalMs} * interval '1 millisecond'
      WHERE GREATEST(p.next_slot_at, ${now}::timestamptz) <= ${notAfter}::timestamptz
    RETURNING next_slot_at - ${pacer.intervalMs} * interval '1 millisecond' AS slot`;
  return rows[0]?.slot ?? null;
}

/** No slot before `until` (the provider answered 429 with a Retry-After), for every server. */
export async function pauseSending(pacer: SendPacer, until: Date): Promise<void> {
  await db.$executeRaw`
    INSERT INTO send_pacers AS p (name, next_slot_at) VALUES (${pacer.name}, ${until}::timestamptz)
    ON CONFLICT (name) DO UPDATE SET next_slot_at = GREATEST(p.next_slot_at, ${until}::timestamptz)`;
}
