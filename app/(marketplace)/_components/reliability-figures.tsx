// What the service measured of an agent: uptime over 7 days (every minute of its rentals once
// they hold an hour, else the health checks every 15 minutes), the median reply time and the share
// of messages answered over 30 days. A new agent says so instead of showing figures from a handful
// of samples.
import { MIN_RENTED_MINUTES, REPLY_DAYS, type Reliability, UPTIME_DAYS } from "@/lib/agents/load-reliability";
import { formatPercent } from "@/lib/format/number";
import { formatReplyTime } from "@/lib/format/reply-time";
import { UPTIME_SOURCE } from "@/lib/format/uptime-source";
import styles from "../marketplace.module.css";

const NOT_ENOUGH = "Not enough data yet";

/** One line on a tile: "Uptime 99.8% · Replies in 1.2 s · 98% answered". */
export function ReliabilityLine({ reliability }: { reliability: Reliability }) {
  const { uptime, medianMs, successRate } = reliability;
  const parts = [
    uptime === null ? null : `Uptime ${formatPercent(uptime)}`,
    medianMs === null ? null : `Replies in ${formatReplyTime(medianMs)}`,
    successRate === null ? null : `${formatPercent(successRate)} answered`,
  ].filter((part) => part !== null);
  return <p className={styles.tileReliability}>{parts.length === 0 ? `New: ${NOT_ENOUGH.toLowerCase()}` : parts.join(" · ")}</p>;
}

/** The agent page's figures, each with its window and what uptime was measured from, and how they are measured. */
export function ReliabilityFacts({ reliability }: { reliability: Reliability }) {
  const { uptime, uptimeSource, medianMs, successRate } = reliability;
  return (
    <>
      <dl className={styles.reliability}>
        <div>
          <dt>Uptime, last {UPTIME_DAYS} days</dt>
          <dd>
            {uptime === null ? NOT_ENOUGH : formatPercent(uptime)}
            {uptimeSource && <span className={styles.reliabilitySource}>{UPTIME_SOURCE[uptimeSource]}</span>}
          </dd>
        </div>
        <div>
          <dt>Median reply, last {REPLY_DAYS} days</dt>
          <dd>{medianMs === null ? NOT_ENOUGH : formatReplyTime(medianMs)}</dd>
        </div>
        <div>
          <dt>Messages answered, last {REPLY_DAYS} days</dt>
          <dd>{successRate === null ? NOT_ENOUGH : formatPercent(successRate)}</dd>
        </div>
      </dl>
      <p className="hint">
        Uptime counts every minute the agent was rented, each checked while the rental ran (a signed check to the agent, and the
        renters&apos; own messages), once it was rented for {MIN_RENTED_MINUTES} minutes or more in the last {UPTIME_DAYS} days; until then,
        the share of the health checks sent to it every 15 minutes that it passed. Replies count every message renters sent, over the API
        and the chat apps.
      </p>
    </>
  );
}
