// Charts as inline SVG (no chart library, no client JavaScript). The SVG is one labelled image
// with a short summary for screen readers; the numbers themselves are in a table below it.
import type { ReactNode } from "react";
import styles from "../dashboard.module.css";
import chartStyles from "./charts.module.css";
import { TableScrollRegion } from "./table-scroll-region";

// `color` is a CSS colour, a theme token such as "var(--chart-1)" included.
export type Series = { name: string; color: string; values: (number | null)[] };

const W = 600;
const H = 160;
const PAD = 4;

function niceMax(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

type ChartProps = {
  id: string;
  title: string;
  /** One sentence saying what the chart shows (totals, peaks): what a screen reader hears. */
  summary: string;
  labels: string[];
  series: Series[];
  kind: "bars" | "lines";
  format: (value: number) => string;
  /** The fallback table's first column heading. */
  labelHeading?: string;
  note?: ReactNode;
};

export function Chart({ id, title, summary, labels, series, kind, format, labelHeading = "Day", note }: ChartProps) {
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = niceMax(all.length ? Math.max(...all) : 0);
  const n = labels.length;
  const x = (i: number) => PAD + ((W - 2 * PAD) * (i + 0.5)) / n;
  const y = (v: number) => H - PAD - ((H - 2 * PAD) * v) / max;
  const barWidth = ((W - 2 * PAD) / n / series.length) * 0.8;

  return (
    <figure className={chartStyles.chart} aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <p className="hint" id={`${id}-summary`}>
        {summary}
      </p>
      <div style={{ display: "flex", justifyContent: "space-between" }} className="hint" aria-hidden="true">
        <span>max {format(max)}</span>
      </div>
      {/* biome-ignore lint/a11y/noSvgWithoutTitle: named by aria-labelledby: the figure's caption and its summary in words. */}
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-labelledby={`${id}-title ${id}-summary`} focusable="false">
        <line
          x1={0}
          y1={H - PAD}
          x2={W}
          y2={H - PAD}
          style={{ stroke: "var(--chart-axis)" }}
          strokeWidth={1}
          vectorEffect="non-scaling-stroke"
        />
        <line
          x1={0}
          y1={y(max / 2)}
          x2={W}
          y2={y(max / 2)}
          style={{ stroke: "var(--chart-grid)" }}
          strokeWidth={1}
          strokeDasharray="4 4"
          vectorEffect="non-scaling-stroke"
        />
        {kind === "bars"
          ? series.map((s, si) =>
              s.values.map((v, i) =>
                v ? (
                  <rect
                    // biome-ignore lint/suspicious/noArrayIndexKey: a bar is its series and its day; the days never reorder
                    key={`${si}-${i}`}
                    x={x(i) - (barWidth * series.length) / 2 + si * barWidth}
                    y={y(v)}
                    width={barWidth}
                    height={H - PAD - y(v)}
                    style={{ fill: s.color }}
                  />
                ) : null,
              ),
            )
          : series.map((s) => (
              <path
                key={s.name}
                d={linePath(s.values, x, y)}
                fill="none"
                style={{ stroke: s.color }}
                strokeWidth={2}
                vectorEffect="non-scaling-stroke"
                strokeLinejoin="round"
                strokeLinecap="round"
              />
            ))}
      </svg>
      <div style={{ display: "flex", justifyContent: "space-between" }} className="hint" aria-hidden="true">
        <span>{labels[0]}</span>
        <span>{labels[n - 1]}</span>
      </div>
      {series.length > 1 && (
        <ul className={chartStyles.legend} aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span className={chartStyles.swatch} style={{ background: s.color }} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      {note}
      <details>
        <summary>Show the numbers as a table</summary>
        <TableScrollRegion label={title}>
          <table className={styles.table}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{labelHeading}</th>
                {series.map((s) => (
                  <th key={s.name} scope="col" className={styles.num}>
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {series.map((s) => (
                    <td key={s.name} className={styles.num}>
                      {s.values[i] === null ? "—" : format(s.values[i]!)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScrollRegion>
      </details>
    </figure>
  );
}

// A line through the points that have values; a day without a sample breaks the line.
function linePath(values: (number | null)[], x: (i: number) => number, y: (v: number) => number): string {
  let d = "";
  let open = false;
  values.forEach((v, i) => {
    if (v === null) {
      open = false;
      return;
    }
    d += `${open ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)} `;
    open = true;
  });
  // A lone point still shows: a zero-length segment with a round cap.
  return d.replace(/M([\d.]+),([\d.]+) (?=M|$)/g, "M$1,$2 l0.01,0 ");
}
