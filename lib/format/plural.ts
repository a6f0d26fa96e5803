import { formatCount } from "@/lib/format/number";

/** "1 agent", "1,204 agents": a count and its noun. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
