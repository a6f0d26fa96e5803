export type CheckPoint = { at: Date; ok: boolean };

/**
 * How long the agent was down within [from, to), in ms, from its health checks (oldest first): down
 * from a failed check until the next passing one. A check before `from` gives the state at `from`;
 * with none, the agent counts as up until its first check says otherwise.
 */
export function measureDowntime(checks: CheckPoint[], from: Date, to: Date): number {
  const start = from.getTime();
  const end = to.getTime();
  if (end <= start) return 0;
  let down = false;
  let since = start;
  let total = 0;
  for (const check of checks) {
    const at = Math.min(Math.max(check.at.getTime(), start), end);
    if (down) total += at - since;
    down = !check.ok;
    since = at;
  }
  if (down) total += end - since;
  return total;
}
