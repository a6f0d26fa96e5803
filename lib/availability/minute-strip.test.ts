import { describe, expect, it } from "vitest";
import {
  bucketMinutes,
  cellMinutes,
  cellTitle,
  downIndexes,
  downSpells,
  MAX_CELLS,
  minutesSummary,
  spansDays,
} from "@/lib/availability/minute-strip";

const startsAt = new Date("2026-11-23T07:00:00Z");
const minute = (i: number) => new Date(startsAt.getTime() + i * 60_000);
const HOUR = 60;
const DAY = 1440;
const MONTH = 30 * DAY;

describe("cellMinutes", () => {
  it("gives an hour a cell a minute, a day 96 cells of 15 minutes, a month 120 of 6 hours", () => {
    expect(cellMinutes(HOUR)).toBe(1);
    expect(cellMinutes(DAY)).toBe(15);
    expect(cellMinutes(MONTH)).toBe(360);
    expect(Math.ceil(DAY / cellMinutes(DAY))).toBe(96);
    expect(Math.ceil(MONTH / cellMinutes(MONTH))).toBe(120);
  });

  it("never makes more than MAX_CELLS cells, whatever the length", () => {
    for (const total of [1, 61, 119, 120, 121, 600, 601, 1801, 2 * DAY, 7 * DAY, MONTH + 1, 100 * DAY]) {
      expect(Math.ceil(total / cellMinutes(total)), `${total} minutes`).toBeLessThanOrEqual(MAX_CELLS);
    }
  });
});

describe("bucketMinutes", () => {
  it("an ended hour: one cell a minute, the down ones down, in one row", () => {
    const strip = bucketMinutes(HOUR, HOUR, [14, 15, 59]);
    expect(strip.minutesPerCell).toBe(1);
    expect(strip.columns).toBe(60);
    expect(strip.cells).toHaveLength(60);
    expect(strip.cells.filter((c) => c.state === "down").map((c) => c.from)).toEqual([14, 15, 59]);
    expect(strip.cells.filter((c) => c.state === "up")).toHaveLength(57);
    expect(strip.cells[14]).toEqual({ from: 14, to: 15, elapsed: 1, down: 1, state: "down" });
  });

  it("a running hour: minutes not begun are not yet", () => {
    const strip = bucketMinutes(HOUR, 30, [3]);
    expect(strip.cells.slice(0, 30).every((c) => c.state !== "not-yet")).toBe(true);
    expect(strip.cells.slice(30).every((c) => c.state === "not-yet" && c.elapsed === 0)).toBe(true);
  });

  it("a day: 15-minute cells counting their down minutes, a cell half begun, rows of 24 cells (6 hours)", () => {
    const strip = bucketMinutes(DAY, 100, [0, 1, 14, 15, 99]);
    expect(strip.minutesPerCell).toBe(15);
    expect(strip.cells).toHaveLength(96);
    expect(strip.columns).toBe(24);
    expect(strip.cells[0]).toEqual({ from: 0, to: 15, elapsed: 15, down: 3, state: "down" });
    expect(strip.cells[1]).toEqual({ from: 15, to: 30, elapsed: 15, down: 1, state: "down" });
    expect(strip.cells[2]).toEqual({ from: 30, to: 45, elapsed: 15, down: 0, state: "up" });
    // Minute 99 is the last begun: the cell 90–104 has 10 minutes begun, one of them down.
    expect(strip.cells[6]).toEqual({ from: 90, to: 105, elapsed: 10, down: 1, state: "down" });
    expect(strip.cells[7]).toEqual({ from: 105, to: 120, elapsed: 0, down: 0, state: "not-yet" });
  });

  it("a month: 6-hour cells; the down minutes of the whole rental are all counted once", () => {
    const down = [0, 0, 359, 360, MONTH - 1];
    const strip = bucketMinutes(MONTH, MONTH, down);
    expect(strip.cells).toHaveLength(120);
    expect(strip.cells[0].down).toBe(2);
    expect(strip.cells[1].down).toBe(1);
    expect(strip.cells[119].down).toBe(1);
    expect(strip.cells.reduce((sum, c) => sum + c.down, 0)).toBe(4);
  });

  it("a length that does not divide: the last cell is shorter; minutes outside the rental are dropped", () => {
    const strip = bucketMinutes(130, 130, [-1, 129, 130]);
    expect(strip.minutesPerCell).toBe(5);
    expect(strip.cells).toHaveLength(26);
    expect(strip.cells.at(-1)).toEqual({ from: 125, to: 130, elapsed: 5, down: 1, state: "down" });
    expect(strip.cells.reduce((sum, c) => sum + c.down, 0)).toBe(1);
  });

  it("no minutes: no cells", () => {
    expect(bucketMinutes(0, 0, []).cells).toEqual([]);
  });
});

describe("downSpells and downIndexes", () => {
  it("groups neighbouring down minutes", () => {
    expect(downSpells([])).toEqual([]);
    expect(downSpells([7, 3, 4, 5, 9, 4])).toEqual([
      [3, 5],
      [7, 7],
      [9, 9],
    ]);
  });

  it("reads the down minutes' start times as the rental's minute indexes", () => {
    expect(
      downIndexes({ minutesTotal: 60, minutesElapsed: 60, downMinutes: [minute(14), minute(3), minute(14), minute(60)] }, startsAt),
    ).toEqual([3, 14]);
  });
});

describe("minutesSummary", () => {
  const summary = (total: number, elapsed: number, down: number[], start = startsAt) =>
    minutesSummary(
      { minutesTotal: total, minutesElapsed: elapsed, downMinutes: down.map((m) => new Date(start.getTime() + m * 60_000)) },
      start,
    );

  it("says how many minutes were up and when the others were down, in UTC", () => {
    expect(summary(HOUR, HOUR, [14])).toBe("59 of 60 minutes up, 1 down (07:14 UTC).");
    expect(summary(HOUR, HOUR, [])).toBe("60 of 60 minutes up, none down.");
    expect(summary(HOUR, HOUR, [14, 15, 16, 40])).toBe("56 of 60 minutes up, 4 down (07:14–07:16, 07:40 UTC).");
  });

  it("while the rental runs, says so far and what is left", () => {
    expect(summary(HOUR, 30, [3])).toBe("So far 29 of 30 minutes up, 1 down (07:03 UTC); 30 minutes to go.");
    expect(summary(HOUR, 0, [])).toBe("None of the rental's 60 minutes has begun yet.");
  });

  it("names the first four spells and counts the rest; a rental across midnight gives the day", () => {
    expect(summary(HOUR, HOUR, [1, 3, 5, 7, 9, 11])).toBe(
      "54 of 60 minutes up, 6 down (07:01, 07:03, 07:05, 07:07 UTC, and 2 more spells).",
    );
    expect(spansDays(startsAt, HOUR)).toBe(false);
    expect(spansDays(startsAt, DAY)).toBe(true);
    expect(spansDays(new Date("2026-11-23T00:00:00Z"), DAY)).toBe(false);
    expect(summary(DAY, DAY, [17 * 60])).toBe("1,439 of 1,440 minutes up, 1 down (24 Nov, 00:00 UTC).");
    expect(summary(DAY, DAY, [60, 61, 62, 16 * 60 + 59, 17 * 60])).toBe(
      "1,435 of 1,440 minutes up, 5 down (23 Nov, 08:00–08:02, 23 Nov, 23:59–24 Nov, 00:00 UTC).",
    );
  });
});

describe("cellTitle", () => {
  it("a minute: its time and state", () => {
    const strip = bucketMinutes(HOUR, 20, [14]);
    expect(cellTitle(strip.cells[14], strip, startsAt, false)).toBe("07:14 UTC: down");
    expect(cellTitle(strip.cells[15], strip, startsAt, false)).toBe("07:15 UTC: up");
    expect(cellTitle(strip.cells[45], strip, startsAt, false)).toBe("07:45 UTC: not yet");
  });

  it("a wider cell: its span and how many of its minutes were down, or all up, or up so far", () => {
    const strip = bucketMinutes(DAY, 100, [0, 1]);
    expect(cellTitle(strip.cells[0], strip, startsAt, true)).toBe("23 Nov, 07:00–07:15 UTC: 2 of 15 minutes down");
    expect(cellTitle(strip.cells[1], strip, startsAt, true)).toBe("23 Nov, 07:15–07:30 UTC: all 15 minutes up");
    expect(cellTitle(strip.cells[6], strip, startsAt, true)).toBe("23 Nov, 08:30–08:45 UTC: 10 of 15 minutes so far, all up");
    expect(cellTitle(strip.cells[7], strip, startsAt, true)).toBe("23 Nov, 08:45–09:00 UTC: not yet");
    const late = bucketMinutes(DAY, DAY, []);
    expect(cellTitle(late.cells[67], late, startsAt, true)).toBe("23 Nov, 23:45–24 Nov, 00:00 UTC: all 15 minutes up");
  });
});
