// The figures `npm run bench` reports in its last line, `BENCH_JSON={…}` (issue 15's table): each
// stage of the bench records what it measured here (bench-results/figures.json, not committed),
// and bench/summary.ts prints them all at the end, null for a figure no stage measured.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

export const FIGURE_KEYS = [
  "status_vs_floor",
  "chat_added_p50_ms",
  "chat_added_p99_ms",
  "status_p99_hung_vs_idle",
  "slow_chats_ok_of_500",
  "slow_chats_ok_of_2000",
  "health_10k_s",
  "health_10k_rss_mb",
  "health_100k_batches_s",
  "probe_10k_agents_s",
  "marketplace_p95_ms",
  "sweep_10k_s",
  "sweep_gas_per_rental",
  "sweep_500_emails_s",
  "settle_gas_per_rental",
  "pay_for_message_gas",
  "x402_added_p50_ms",
  "rent_first_load_gzip_kb",
  "home_first_load_gzip_kb",
] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];

const FILE = "bench-results/figures.json";

export function readFigures(): Partial<Record<FigureKey, number>> {
  try {
    return JSON.parse(readFileSync(FILE, "utf8"));
  } catch {
    return {};
  }
}

/** Merges this stage's figures into the file (a stage run again replaces its own). */
export function recordFigures(figures: Partial<Record<FigureKey, number>>): void {
  mkdirSync("bench-results", { recursive: true });
  const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round((v as number) * 100) / 100]));
  writeFileSync(FILE, JSON.stringify({ ...readFigures(), ...rounded }, null, 2));
}

export function benchJsonLine(figures = readFigures()): string {
  return `BENCH_JSON=${JSON.stringify(Object.fromEntries(FIGURE_KEYS.map((k) => [k, figures[k] ?? null])))}`;
}
