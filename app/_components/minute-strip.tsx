// A rental's minutes as a strip (the renter's rental page, the arbiter's evidence): a cell per
// minute for an hour, 15 minutes for a day, 6 hours for a month (lib/availability/minute-strip.ts),
// each up, down (any of its minutes down) or not yet. Plain elements, server-rendered: no script.
// Colour is never the only signal: a down cell is twice as tall, a cell not yet begun is hollow,
// every cell has a title, and the sentence below says what the strip shows (it names the image).
import { type CSSProperties, Fragment } from "react";
import {
  bucketMinutes,
  type CellState,
  cellTitle,
  downIndexes,
  minutesSummary,
  type StripMinutes,
  spansDays,
} from "@/lib/availability/minute-strip";
import { formatClock } from "@/lib/format/date-time";
import { plural } from "@/lib/format/plural";
import styles from "./minute-strip.module.css";

const MINUTE_MS = 60_000;
const CELL: Record<CellState, string> = {
  up: `${styles.cell} ${styles.up}`,
  down: `${styles.cell} ${styles.down}`,
  "not-yet": `${styles.cell} ${styles.notYet}`,
};

// "15 minutes", "6 hours", "6 days": a cell's or a row's length in its largest whole unit.
function length(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

type Props = {
  /** Unique on the page: the summary's id is derived from it. */
  id: string;
  minutes: StripMinutes;
  startsAt: Date;
};

export function MinuteStrip({ id, minutes, startsAt }: Props) {
  const strip = bucketMinutes(minutes.minutesTotal, minutes.minutesElapsed, downIndexes(minutes, startsAt));
  const withDay = spansDays(startsAt, minutes.minutesTotal);
  const at = (minute: number) => new Date(startsAt.getTime() + minute * MINUTE_MS);
  const rows: (typeof strip.cells)[] = [];
  for (let i = 0; i < strip.cells.length; i += strip.columns) rows.push(strip.cells.slice(i, i + strip.columns));
  const labelled = rows.length > 1;
  const summaryId = `${id}-summary`;
  return (
    <figure className={styles.figure}>
      <div
        role="img"
        aria-labelledby={summaryId}
        className={labelled ? `${styles.strip} ${styles.rows}` : styles.strip}
        style={{ "--columns": strip.columns } as CSSProperties}
      >
        {rows.map((row) => (
          <Fragment key={row[0].from}>
            {labelled && <span className={styles.rowLabel}>{formatClock(at(row[0].from), strip.minutesPerCell >= 60)}</span>}
            {row.map((cell) => (
              <span key={cell.from} className={CELL[cell.state]} title={cellTitle(cell, strip, startsAt, withDay)} />
            ))}
          </Fragment>
        ))}
      </div>
      {!labelled && strip.cells.length > 0 && (
        <div className={styles.axis} aria-hidden="true">
          <span>{formatClock(startsAt, withDay)}</span>
          <span>{formatClock(at(minutes.minutesTotal), withDay)} UTC</span>
        </div>
      )}
      <figcaption id={summaryId} className={styles.summary}>
        {minutesSummary(minutes, startsAt)}
      </figcaption>
      <ul className={styles.key}>
        <li>
          Each cell: {strip.minutesPerCell === 1 ? "one minute" : length(strip.minutesPerCell)}
          {labelled && `, a row: ${length(strip.columns * strip.minutesPerCell)}`}
        </li>
        <li>
          <span className={CELL.up} aria-hidden="true" /> Up
        </li>
        <li>
          <span className={CELL.down} aria-hidden="true" /> Down
          {strip.minutesPerCell > 1 && " (a minute or more)"}
        </li>
        <li>
          <span className={CELL["not-yet"]} aria-hidden="true" /> Not yet
        </li>
      </ul>
    </figure>
  );
}
