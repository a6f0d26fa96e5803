// /dashboard — the owner's overview: listings by state, money, and what to do next.
import type { Metadata } from "next";
import Link from "next/link";
import { FigureCard } from "@/app/dashboard/_components/figure-card";
import { listOwnerAgents } from "@/lib/agents/list-owner-agents";
import { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { plural } from "@/lib/format/plural";
import { formatUsdcNumber } from "@/lib/format/usdc";
import styles from "./dashboard.module.css";

export const metadata: Metadata = { title: "Overview" };

export default async function DashboardPage() {
  const account = await requireSignedInAccount();
  const [agents, stats] = await Promise.all([listOwnerAgents(account.id), loadOwnerStats(account.id)]);
  const available = agents.filter((a) => a.status === "available").length;
  const notConnected = agents.filter((a) => !a.webhookConnected).length;
  const { total } = stats;
  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>Dashboard</h1>
        <Link href="/dashboard/agents/new" className="button button-primary">
          New listing
        </Link>
      </div>
      <dl className={styles.cards}>
        <FigureCard
          name="Listings"
          note={
            <>
              {available} available, {agents.length - available} offline
            </>
          }
        >
          {agents.length}
        </FigureCard>
        <FigureCard name="Active rentals" note={<>{plural(total.rentals.total, "rental")} in all</>}>
          {total.rentals.active}
        </FigureCard>
        <FigureCard name="Released to you" note={<>{formatUsdcNumber(total.revenue.inEscrow)} in escrow</>}>
          {formatUsdcNumber(total.revenue.released)}
        </FigureCard>
        <FigureCard name="Uptime, last 7 days" note="of webhook health checks passed">
          {total.uptime7d === null ? "—" : `${total.uptime7d}%`}
        </FigureCard>
      </dl>
      <section className={styles.panel} aria-labelledby="next-heading">
        <h2 id="next-heading">Next steps</h2>
        {agents.length === 0 ? (
          <p>
            List your first agent: <Link href="/dashboard/agents/new">create a listing</Link>, then connect the webhook where it runs. It
            goes live on the marketplace when the test connection passes.
          </p>
        ) : (
          <ul>
            {notConnected > 0 && (
              <li>
                {plural(notConnected, "listing")} {notConnected === 1 ? "has" : "have"} no webhook yet: open{" "}
                <Link href="/dashboard/agents">Listings</Link> and connect {notConnected === 1 ? "it" : "them"}.
              </li>
            )}
            {agents.length - available - notConnected > 0 && (
              <li>
                {plural(agents.length - available - notConnected, "listing")} failed the latest webhook check and{" "}
                {agents.length - available - notConnected === 1 ? "is" : "are"} offline: see <Link href="/dashboard/agents">Listings</Link>.
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
        )}
      </section>
    </main>
  );
}
