// A rental's minutes as a strip of cells (the renter's rental page, the arbiter's evidence): one
// cell per minute for an hour, wider cells for longer rentals so a strip never holds more than
// MAX_CELLS, and the words that say the same as the colours. Pure: pages on both sides use it.
import { formatClock } from "@/lib/format/date-time";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";

const MINUTE_MS = 60_000;

/**
 * Cell widths in minutes, narrowest first: the first that keeps the strip within MAX_CELLS wins.
 * An hour is 60 cells of a minute, a day 96 of 15 minutes, a 30-day month 120 of 6 hours.
 */
const CELL_MINUTES = [1, 5, 15, 30, 60, 180, 360, 720, 1440];
export const MAX_CELLS = 120;
/** Up to this many cells make one row; a longer strip wraps into rows of ROW_CELLS (a day: 6 hours a row). */
const ONE_ROW = 60;
const ROW_CELLS = 24;
/** Spells of down minutes named in the summary; the rest are counted. */
const SPELLS_NAMED = 4;

export type CellState = "up" | "down" | "not-yet";

export type StripCell = {
  /** The rental's minutes [from, to) that the cell covers. */
  from: number;
  to: number;
  /** How many of them have begun, and how many of those were down. */
  elapsed: number;
  down: number;
  /** Down when any of its minutes was down; not yet when none has begun. */
  state: CellState;
};

export type MinuteStrip = { minutesPerCell: number; columns: number; cells: StripCell[] };

/** What the strip reads of a rental's measured minutes (lib/availability/availability-terms.ts). */
export type StripMinutes = { minutesTotal: number; minutesElapsed: number; downMinutes: Date[] };

/** The width of a cell, in minutes, for a rental of `total` minutes. */
export function cellMinutes(total: number): number {
  return CELL_MINUTES.find((size) => Math.ceil(total / size) <= MAX_CELLS) ?? Math.ceil(total / MAX_CELLS);
}

/** The down minutes as the rental's minute indexes, ascending, each once. */
export function downIndexes(minutes: StripMinutes, startsAt: Date): number[] {
  const indexes = minutes.downMinutes.map((at) => Math.floor((at.getTime() - startsAt.getTime()) / MINUTE_MS));
  return [...new Set(indexes)].filter((m) => m >= 0 && m < minutes.minutesTotal).sort((a, b) => a - b);
}

/** The rental's minutes in cells: how many begun and how many down in each. */
export function bucketMinutes(total: number, elapsed: number, down: number[]): MinuteStrip {
  const size = cellMinutes(Math.max(1, total));
  const count = Math.ceil(Math.max(0, total) / size);
  const downIn = new Array<number>(count).fill(0);
  for (const minute of new Set(down)) if (minute >= 0 && minute < total) downIn[Math.floor(minute / size)]++;
  const cells = downIn.map((downCount, i): StripCell => {
    const from = i * size;
    const to = Math.min(total, from + size);
    const begun = Math.max(0, Math.min(to, elapsed) - from);
    return { from, to, elapsed: begun, down: downCount, state: downCount > 0 ? "down" : begun === 0 ? "not-yet" : "up" };
  });
  return { minutesPerCell: size, columns: count <= ONE_ROW ? count : ROW_CELLS, cells };
}

/** Runs of consecutive down minutes, as [first, last] minute indexes. */
export function downSpells(down: number[]): [number, number][] {
  const spells: [number, number][] = [];
  for (const minute of [...new Set(down)].sort((a, b) => a - b)) {
    const last = spells.at(-1);
    if (last && minute === last[1] + 1) last[1] = minute;
    else spells.push([minute, minute]);
  }
  return spells;
}

/** Whether the rental's minutes cross a UTC midnight: its times then carry their day. */
export function spansDays(startsAt: Date, total: number): boolean {
  const lastMinute = new Date(startsAt.getTime() + Math.max(0, total - 1) * MINUTE_MS);
  return startsAt.toISOString().slice(0, 10) !== lastMinute.toISOString().slice(0, 10);
}

const at = (startsAt: Date, minute: number) => new Date(startsAt.getTime() + minute * MINUTE_MS);

/**
 * The strip in one sentence: "59 of 60 minutes up, 1 down (07:14 UTC)."; while the rental runs
 * "So far 29 of 30 minutes up, 1 down (07:14 UTC); 30 minutes to go."
 */
export function minutesSummary(minutes: StripMinutes, startsAt: Date): string {
  const { minutesTotal: total, minutesElapsed: elapsed } = minutes;
  if (elapsed <= 0) return `None of the rental's ${plural(total, "minute")} has begun yet.`;
  const down = downIndexes(minutes, startsAt);
  const withDay = spansDays(startsAt, total);
  const clock = (minute: number, day = withDay) => formatClock(at(startsAt, minute), day);
  const sameDay = (a: number, b: number) => at(startsAt, a).toISOString().slice(0, 10) === at(startsAt, b).toISOString().slice(0, 10);
  const spells = downSpells(down);
  // A spell's end carries its day only when it is not the start's: "26 Nov, 06:01–06:03".
  const named = spells
    .slice(0, SPELLS_NAMED)
    .map(([first, last]) => (first === last ? clock(first) : `${clock(first)}–${clock(last, withDay && !sameDay(first, last))}`));
  const more = spells.length - named.length;
  const downPart =
    down.length === 0
      ? "none down"
      : `${formatCount(down.length)} down (${named.join(", ")} UTC${more > 0 ? `, and ${plural(more, "more spell")}` : ""})`;
  const upPart = `${formatCount(elapsed - down.length)} of ${plural(elapsed, "minute")} up, ${downPart}`;
  return elapsed >= total ? `${upPart}.` : `So far ${upPart}; ${plural(total - elapsed, "minute")} to go.`;
}

/**
 * A cell's title: "07:14 UTC: down" for a minute; "07:00–07:15 UTC: 2 of 15 minutes down" for
 * wider cells ("all 15 minutes up", "5 of 15 minutes so far, all up", "not yet").
 */
export function cellTitle(cell: StripCell, strip: MinuteStrip, startsAt: Date, withDay: boolean): string {
  const width = cell.to - cell.from;
  const start = at(startsAt, cell.from);
  const end = at(startsAt, cell.to);
  const sameDay = start.toISOString().slice(0, 10) === end.toISOString().slice(0, 10);
  const when =
    strip.minutesPerCell === 1 ? formatClock(start, withDay) : `${formatClock(start, withDay)}–${formatClock(end, withDay && !sameDay)}`;
  const what =
    cell.state === "not-yet"
      ? "not yet"
      : width === 1
        ? cell.state
        : cell.state === "down"
          ? `${formatCount(cell.down)} of ${plural(width, "minute")} down`
          : cell.elapsed < width
            ? `${formatCount(cell.elapsed)} of ${plural(width, "minute")} so far, all up`
            : `all ${plural(width, "minute")} up`;
  return `${when} UTC: ${what}`;
}
