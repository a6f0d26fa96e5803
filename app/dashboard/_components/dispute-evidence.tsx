// What the service measured of a disputed rental, for the owner (listing page) and the arbiter
// (console): the renter's words (and, in the console, the owner's answer beside them), the rental's
// minutes as measured every minute (uptime, down minutes, the strip, and what the guarantee would
// refund) when given, the downtime from the health checks and the refund it suggests, then the
// health checks and the calls themselves. Never message text: the service does not keep it.

import type { ReactNode } from "react";
import { MinuteStrip } from "@/app/_components/minute-strip";
import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import type { DisputeEvidence as Evidence } from "@/lib/disputes/load-dispute-evidence";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { formatCount, formatPercent } from "@/lib/format/number";
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
  /** The rental's measured minutes (lib/availability), with its start and an id unique on the page for the strip. */
  availability?: { terms: AvailabilityTerms; startsAt: Date; id: string };
};

export function DisputeEvidence({ reason, details, answer, evidence: e, priceMicro, label, availability }: Props) {
  const share = e.rentalMs > 0 ? Math.round((e.downtimeMs / e.rentalMs) * 1000) / 10 : 0;
  return (
    <div className={styles.evidence}>
      <p>
        <strong>{disputeReasonLabel(reason)}.</strong>
      </p>
      {details && <blockquote className={styles.quote}>{details}</blockquote>}
      {answer}
      {availability && <MinuteStrip id={availability.id} minutes={availability.terms} startsAt={availability.startsAt} />}
      <dl className={styles.evidenceFacts}>
        {availability && <MeasuredMinutes terms={availability.terms} priceMicro={priceMicro} />}
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

// The figures of the minutes measured every minute, beside those of the 15-minute health checks.
function MeasuredMinutes({ terms, priceMicro }: { terms: AvailabilityTerms; priceMicro: bigint }) {
  const guarantee = formatPercent(terms.guaranteePermille / 10);
  return (
    <>
      <dt>Uptime, every minute</dt>
      <dd>
        {terms.uptimeBasisPoints === null ? "not started" : formatPercent(terms.uptimeBasisPoints / 100)}{" "}
        <span className="hint">
          ({formatCount(terms.minutesDown)} of {plural(terms.minutesElapsed, "minute")} down, against a {guarantee} guarantee)
        </span>
      </dd>
      <dt>Refund by the guarantee</dt>
      <dd>
        {formatUsdc(terms.refundMicro)}{" "}
        <span className="hint">
          of {formatUsdc(priceMicro)}: what settling by these minutes would return
          {terms.minutesElapsed < terms.minutesTotal ? ", so far" : ""}
        </span>
      </dd>
    </>
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
