import "server-only";
import { createHash } from "node:crypto";
import type { BatchKind } from "@/lib/queue/qstash";

/**
 * A batch's id, also its deduplication id at QStash: the same agents of the same round always get
 * the same one (a publish retried, or repeated, is one message); two rounds, or two sets of agents
 * (two cron runs at the same moment claim disjoint ones), never do.
 */
export function batchId(kind: BatchKind, round: Date, agents: string[]): string {
  return `${kind}-${round.getTime()}-${createHash("sha256").update(agents.join(",")).digest("hex").slice(0, 24)}`;
}
