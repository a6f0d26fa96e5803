import { describe, expect, it } from "vitest";
import { rentedMinutesBetween, type WindowRental } from "@/lib/availability/rented-minutes";

const now = new Date("2026-11-24T12:00:30Z");
const since = new Date("2026-11-17T12:00:30Z");
const at = (minutesBeforeNow: number) => new Date(now.getTime() - minutesBeforeNow * 60_000);
const hour = (startsAt: Date, down: number[], status = "completed"): WindowRental => ({
  startsAt,
  endsAt: new Date(startsAt.getTime() + 3_600_000),
  status,
  minutesMeasured: [0, 60],
  minutesDown: down,
});

describe("rentedMinutesBetween", () => {
  it("an hour inside the window: all its minutes and its down ones", () => {
    expect(rentedMinutesBetween(hour(at(600), [0, 5, 50, 52]), since, now)).toEqual({ elapsed: 60, down: 7 });
  });

  it("clips to the window's start: only the minutes beginning after it, and their down minutes", () => {
    // Starts 30.5 minutes before the window: minutes 31–59 begin inside it.
    const across = hour(new Date(since.getTime() - 30.5 * 60_000), [0, 40]);
    expect(rentedMinutesBetween(across, since, now)).toEqual({ elapsed: 29, down: 9 });
  });

  it("clips to now: minutes begun so far, the one running included", () => {
    expect(rentedMinutesBetween(hour(at(10.5), [3, 4], "active"), since, now)).toEqual({ elapsed: 11, down: 1 });
    expect(rentedMinutesBetween(hour(at(-5), [], "active"), since, now)).toEqual({ elapsed: 0, down: 0 });
  });

  it("a cancelled rental counts up to its last measured minute", () => {
    const cancelled = { ...hour(at(600), [10, 20], "cancelled"), minutesMeasured: [0, 20] };
    expect(rentedMinutesBetween(cancelled, since, now)).toEqual({ elapsed: 20, down: 10 });
    expect(rentedMinutesBetween({ ...cancelled, minutesMeasured: [], minutesDown: [] }, since, now)).toEqual({ elapsed: 0, down: 0 });
  });

  it("a rental over before the window: nothing", () => {
    expect(rentedMinutesBetween(hour(new Date(since.getTime() - 3_600_000), [0, 60]), since, now)).toEqual({ elapsed: 0, down: 0 });
  });
});
