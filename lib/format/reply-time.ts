import { formatCount } from "@/lib/format/number";

/** A reply time as people read it: "850 ms" under a second, else "1.2 s". */
export function formatReplyTime(ms: number): string {
  return ms < 1000 ? `${formatCount(Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
