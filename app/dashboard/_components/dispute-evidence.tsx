// What the service measured of a disputed rental, for the owner (listing page) and the arbiter
// (console): the renter's words (and, in the console, the owner's answer beside them), the downtime
// and the refund it suggests, then the health checks and the calls themselves. Never message text:
// the service does not keep it.

import type { ReactNode } from "react";
import type { DisputeEvidence as Evidence } from "@/lib/disputes/load-dispute-evidence";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { formatReplyTime } from "@/lib/format/reply-time";
import { formatSpan } from "@/lib/format/span";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "../dashboard.module.css";
import { TableScrollRegion } from "./table-scroll-region";

type Props = {
  reason: string | null;
  details: string | null;
  /** Shown right after the renter's words: the owner's answer, in the console. */
  answer?: ReactNode;
  evidence: Evidence;
  priceMicro: bigint;
  /** Names the tables for screen readers when several disputes share a page. */
  label: string;
};

export function DisputeEvidence({ reason, details, answer, evidence: e, priceMicro, label }: Props) {
  const share = e.rentalMs > 0 ? Math.round((e.downtimeMs / e.rentalMs) * 1000) / 10 : 0;
  return (
    <div className={styles.evidence}>
      <p>
        <strong>{disputeReasonLabel(reason)}.</strong>
      </p>
      {details && <blockquote className={styles.quote}>{details}</blockquote>}
      {answer}
      <dl className={styles.evidenceFacts}>
        <dt>Measured downtime</dt>
        <dd>
          {e.downtimeMs > 0 ? formatSpan(e.downtimeMs) : "none"}{" "}
          <span className="hint">
            ({share}% of the rental, from {plural(e.checksTotal, "health check")}, {formatCount(e.checksFailed)} failed)
          </span>
        </dd>
        <dt>Messages</dt>
        <dd>
          {formatCount(e.callsTotal)}, {formatCount(e.callsFailed)} failed
          {e.medianMs !== null && <span className="hint"> (median reply {formatReplyTime(e.medianMs)})</span>}
        </dd>
        <dt>Suggested refund</dt>
        <dd>
          {formatUsdc(e.suggestedRefundMicro)} <span className="hint">of {formatUsdc(priceMicro)}, pro rata to the downtime</span>
        </dd>
      </dl>
      <details>
        <summary>Health checks and messages</summary>
        <p className="hint">
          From {formatDateTime(e.from)} to {formatDateTime(e.to)}: {shown(e.checks.length, e.checksTotal, "health check")} and{" "}
          {shown(e.calls.length, e.callsTotal, "message")}. Message text is never stored.
        </p>
        <TableScrollRegion label={`Health checks, ${label}`}>
          <table className={styles.table}>
            <caption className="visually-hidden">Health checks during the rental</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Result</th>
                <th scope="col">Reply time</th>
              </tr>
            </thead>
            <tbody>
              {e.checks.length === 0 && (
                <tr>
                  <td colSpan={3}>No health check ran during the rental.</td>
                </tr>
              )}
              {e.checks.map((c) => (
                <tr key={c.at.toISOString()}>
                  <td>{formatDateTime(c.at)}</td>
                  <td>
                    {c.ok ? `Passed (${c.statusCode})` : `Failed: ${c.statusCode ? `status ${c.statusCode}` : (c.error ?? "no answer")}`}
                  </td>
                  <td>{formatReplyTime(c.latencyMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScrollRegion>
        <TableScrollRegion label={`Messages, ${label}`}>
          <table className={styles.table}>
            <caption className="visually-hidden">Messages of the rental</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Channel</th>
                <th scope="col">Answer</th>
                <th scope="col">Reply time</th>
              </tr>
            </thead>
            <tbody>
              {e.calls.length === 0 && (
                <tr>
                  <td colSpan={4}>No messages were sent.</td>
                </tr>
              )}
              {e.calls.map((c) => (
                <tr key={`${c.at.toISOString()}-${c.latencyMs}-${c.statusCode}`}>
                  <td>{formatDateTime(c.at)}</td>
                  <td>{c.channel}</td>
                  <td>{callOutcome(c.statusCode, c.webhookStatus)}</td>
                  <td>{formatReplyTime(c.latencyMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScrollRegion>
      </details>
    </div>
  );
}

function callOutcome(status: number, webhookStatus: number | null): string {
  if (status < 400) return "Answered";
  if (status === 502) return `Agent failed (status ${webhookStatus ?? "unknown"})`;
  if (status === 503) return webhookStatus === null ? "Agent unreachable or too slow" : "Agent too slow";
  return `Refused (${status})`;
}

// "3 health checks", or "the latest 100 of 2,880 messages" when the tables hold only the latest.
function shown(listed: number, total: number, noun: string): string {
  return listed < total ? `the latest ${formatCount(listed)} of ${plural(total, noun)}` : plural(listed, noun);
}
