// /dashboard/agents/[id]/deliveries — one listing's delivery log: the latest calls to its webhook
// (renter messages on every channel, and health checks) with their outcome, filterable, the
// reason of each failure in words, sizes and times (never text); and "Send a test message".
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TableScrollRegion } from "@/app/dashboard/_components/table-scroll-region";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { DELIVERIES_SHOWN, DELIVERY_OUTCOMES, type DeliveryOutcome, listAgentDeliveries } from "@/lib/agents/list-agent-deliveries";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { formatDateTime } from "@/lib/format/date-time";
import { formatCount } from "@/lib/format/number";
import { formatReplyTime } from "@/lib/format/reply-time";
import { ApiError } from "@/lib/http/api-error";
import styles from "../../../dashboard.module.css";
import { sendTestMessageAction } from "../../actions";
import { TestMessageForm } from "./test-message-form";

export const metadata: Metadata = { title: "Delivery log" };

const FILTER_LABEL: Record<DeliveryOutcome, string> = { all: "All", failed: "Failed", succeeded: "Succeeded" };
const bytes = (n: number | null) => (n === null ? "—" : `${formatCount(n)} B`);

export default async function DeliveriesPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ outcome?: string }>;
}) {
  const account = await requireSignedInAccount();
  const [{ id }, { outcome: asked }] = await Promise.all([params, searchParams]);
  const agent = await findOwnerAgent(account.id, id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
  const outcome = DELIVERY_OUTCOMES.find((o) => o === asked) ?? "all";
  const deliveries = await listAgentDeliveries(agent.id, outcome);

  return (
    <main id="main" tabIndex={-1}>
      <p className="back-link">
        <Link href={`/dashboard/agents/${agent.id}`}>← {agent.name}</Link>
      </p>
      <div className={styles.header}>
        <h1>Delivery log</h1>
      </div>
      <p className="muted">
        The latest {formatCount(DELIVERIES_SHOWN)} calls to this listing&apos;s webhook: renters&apos; messages on every channel, the health
        checks, and the notices that a renter extended a rental. Message text is never stored; sizes and times are.
      </p>

      <section className={styles.panel} aria-labelledby="test-heading">
        <h2 id="test-heading">Send a test message</h2>
        {agent.webhookUrlCipher ? (
          <TestMessageForm action={sendTestMessageAction.bind(null, agent.id)} />
        ) : (
          <p className="muted">Connect a webhook on the listing&apos;s page first.</p>
        )}
      </section>

      <section className={styles.panel} aria-labelledby="log-heading">
        <h2 id="log-heading">Calls</h2>
        <nav aria-label="Show calls" className={styles.actions}>
          {DELIVERY_OUTCOMES.map((o) => (
            <Link
              key={o}
              href={o === "all" ? `/dashboard/agents/${agent.id}/deliveries` : `?outcome=${o}`}
              aria-current={o === outcome ? "page" : undefined}
              className={o === outcome ? "button button-primary" : "button"}
            >
              {FILTER_LABEL[o]}
            </Link>
          ))}
        </nav>
        {deliveries.length === 0 ? (
          <p className="muted">{outcome === "all" ? "No calls yet." : `No ${outcome} calls among the latest.`}</p>
        ) : (
          <TableScrollRegion label="Calls to the webhook">
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Outcome</th>
                  <th scope="col" className={styles.num}>
                    Reply time
                  </th>
                  <th scope="col" className={styles.num}>
                    Sent
                  </th>
                  <th scope="col" className={styles.num}>
                    Reply
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.key}>
                    <td>{formatDateTime(d.at)}</td>
                    <td>{d.channel}</td>
                    <td>{d.ok ? `Answered${d.webhookStatus ? ` (HTTP ${d.webhookStatus})` : ""}` : `Failed: ${d.reason}`}</td>
                    <td className={styles.num}>{formatReplyTime(d.latencyMs)}</td>
                    <td className={styles.num}>{bytes(d.requestBytes)}</td>
                    <td className={styles.num}>{bytes(d.responseBytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScrollRegion>
        )}
      </section>
    </main>
  );
}
