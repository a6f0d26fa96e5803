// The overview's owner part: listings by state, money, and what to do next.
import Link from "next/link";
import { FigureCard } from "@/app/dashboard/_components/figure-card";
import type { listOwnerAgents } from "@/lib/agents/list-owner-agents";
import type { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { UPTIME_SOURCE } from "@/lib/format/uptime-source";
import { formatUsdcNumber } from "@/lib/format/usdc";
import styles from "../dashboard.module.css";

type Props = { agents: Awaited<ReturnType<typeof listOwnerAgents>>; stats: Awaited<ReturnType<typeof loadOwnerStats>> };

export function OwnerOverview({ agents, stats }: Props) {
  const available = agents.filter((a) => a.status === "available").length;
  const notConnected = agents.filter((a) => !a.webhookConnected).length;
  const failing = agents.length - available - notConnected;
  const { total } = stats;
  return (
    <section aria-labelledby="listings-heading">
      <div className={styles.header}>
        <h2 id="listings-heading">Your listings</h2>
        <Link href="/dashboard/agents/new" className="button">
          New listing
        </Link>
      </div>
      <dl className={styles.cards}>
        <FigureCard name="Listings" note={`${available} available, ${agents.length - available} offline`}>
          {agents.length}
        </FigureCard>
        <FigureCard name="Rented now" note={`${plural(total.rentals.total, "rental")} in all`}>
          {total.rentals.active}
        </FigureCard>
        <FigureCard name="Released to you" note={`${formatUsdcNumber(total.revenue.inEscrow)} in escrow`}>
          {formatUsdcNumber(total.revenue.released)}
        </FigureCard>
        <FigureCard
          name="Uptime, last 7 days"
          note={total.uptimeSource === null ? "not enough rentals or health checks yet" : UPTIME_SOURCE[total.uptimeSource]}
        >
          {total.uptime7d === null ? "—" : formatPercent(total.uptime7d)}
        </FigureCard>
      </dl>
      <div className={styles.panel}>
        <h3>Next steps</h3>
        <ul>
          {notConnected > 0 && (
            <li>
              {plural(notConnected, "listing")} {notConnected === 1 ? "has" : "have"} no webhook yet: open{" "}
              <Link href="/dashboard/agents">Listings</Link> and connect {notConnected === 1 ? "it" : "them"}.
            </li>
          )}
          {failing > 0 && (
            <li>
              {plural(failing, "listing")} failed the latest webhook check and {failing === 1 ? "is" : "are"} offline: see{" "}
              <Link href="/dashboard/agents">Listings</Link>.
            </li>
          )}
          <li>
            Scripts can manage listings with an <Link href="/dashboard/keys">API key</Link>.
          </li>
          <li>
            See rentals, revenue, calls, latency and uptime over time in <Link href="/dashboard/stats">Stats</Link>, and your money in{" "}
            <Link href="/dashboard/payouts">Payouts</Link>.
          </li>
        </ul>
      </div>
    </section>
  );
}
