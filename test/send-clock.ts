// A clock for the sender (lib/email/send-pacer.ts's SendClock) that never waits: sleeping until a
// time moves it there at once. Runs sharing one see each other's waits, as runs on one wall
// clock would. Tests of pacing read the times the sender recorded, never the machine's.
import type { SendClock } from "@/lib/email/send-pacer";

export function jumpingClock(start: Date): SendClock & { advance(ms: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    async sleepUntil(time) {
      now = Math.max(now, time.getTime());
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance(ms) {
      now += ms;
    },
  };
}
