// /dashboard/stats — the owner's figures (the same as GET /api/public/stats) and 30 days of them
// day by day, as charts with a table of the numbers under each.
import type { Metadata } from "next";
import { FigureCard } from "@/app/dashboard/_components/figure-card";
import { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { loadOwnerTimeSeries, SERIES_DAYS } from "@/lib/agents/load-owner-time-series";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { channelName } from "@/lib/channels/channel-name";
import { formatDate } from "@/lib/format/date-time";
import { formatCount, formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { UPTIME_SOURCE } from "@/lib/format/uptime-source";
import { formatUsdc, formatUsdcNumber } from "@/lib/format/usdc";
import { microToUsdc } from "@/lib/money/usdc";
import { Chart } from "../_components/charts";
import { TableScrollRegion } from "../_components/table-scroll-region";
import styles from "../dashboard.module.css";

export const metadata: Metadata = { title: "Stats" };

const ms = (value: number) => `${formatCount(Math.round(value))} ms`;

export default async function StatsPage() {
  const account = await requireSignedInAccount();
  const [stats, days] = await Promise.all([loadOwnerStats(account.id), loadOwnerTimeSeries(account.id)]);
  const labels = days.map((d) => formatDate(new Date(d.date)));
  const rentals30 = days.reduce((sum, d) => sum + d.rentals, 0);
  const revenue30 = days.reduce((sum, d) => sum + d.revenueMicro, 0n);
  const calls30 = days.reduce((sum, d) => sum + d.chatCalls, 0);
  const errors30 = days.reduce((sum, d) => sum + d.chatErrors, 0);
  const checks30 = days.reduce((sum, d) => sum + d.healthChecks, 0);
  const { total } = stats;
  // Where the messages came from: the API and each chat bot, the channels used only.
  const byChannel = Object.entries(total.chatCallsByChannel)
    .filter(([, n]) => n > 0)
    .map(([channel, n]) => `${channelName(channel)} ${formatCount(n)}`)
    .join(", ");

  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>Stats</h1>
      </div>
      <h2 className="visually-hidden">Totals</h2>
      <dl className={styles.cards}>
        <FigureCard name="Rentals" note={<>{total.rentals.active} active now</>}>
          {formatCount(total.rentals.total)}
        </FigureCard>
        <FigureCard name="Released to you" note={<>{formatUsdcNumber(total.revenue.inEscrow)} in escrow</>}>
          {formatUsdcNumber(total.revenue.released)}
        </FigureCard>
        {total.revenue.perMessage > 0 && (
          <FigureCard name="Per-message earnings" note={<>answers sold one at a time; withdrawn from Payouts</>}>
            {formatUsdcNumber(total.revenue.perMessage)}
          </FigureCard>
        )}
        <FigureCard
          name="Chat calls"
          note={
            <>
              {formatPercent(total.errorRate * 100)} answered with an error
              {byChannel && <> · {byChannel}</>}
            </>
          }
        >
          {formatCount(total.chatCalls)}
        </FigureCard>
        {total.trials.started > 0 && (
          <FigureCard name="Free trial calls" note={<>{plural(total.trials.started, "trial")} given; not in the paid figures</>}>
            {formatCount(total.trials.calls)}
          </FigureCard>
        )}
        <FigureCard
          name="Webhook latency"
          note={<>median; 95th percentile {total.latencyMs.p95 === null ? "—" : ms(total.latencyMs.p95)}</>}
        >
          {total.latencyMs.p50 === null ? "—" : ms(total.latencyMs.p50)}
        </FigureCard>
        <FigureCard
          name="Uptime, last 7 days"
          note={total.uptimeSource === null ? "not enough rentals or health checks yet" : UPTIME_SOURCE[total.uptimeSource]}
        >
          {total.uptime7d === null ? "—" : formatPercent(total.uptime7d)}
        </FigureCard>
      </dl>

      <h2>Last {SERIES_DAYS} days (UTC)</h2>
      {rentals30 === 0 && calls30 === 0 && checks30 === 0 && (
        <p className="hint">
          Nothing happened in the last {SERIES_DAYS} days yet: the charts fill in as your agents are rented and checked.
        </p>
      )}
      <Chart
        id="chart-rentals"
        title="Rentals started per day"
        summary={`${plural(rentals30, "rental")} in the last ${SERIES_DAYS} days.`}
        labels={labels}
        kind="bars"
        format={formatCount}
        series={[{ name: "Rentals", color: "var(--chart-1)", values: days.map((d) => d.rentals) }]}
      />
      <Chart
        id="chart-revenue"
        title="Revenue per day (rentals started that day, USDC)"
        summary={`${formatUsdc(revenue30)} from rentals started in the last ${SERIES_DAYS} days (cancelled rentals not counted).`}
        labels={labels}
        kind="bars"
        format={(v) => formatUsdcNumber(v)}
        series={[{ name: "Revenue", color: "var(--chart-2)", values: days.map((d) => microToUsdc(d.revenueMicro)) }]}
      />
      <Chart
        id="chart-calls"
        title="Chat calls per day"
        summary={`${plural(calls30, "chat call")} in the last ${SERIES_DAYS} days, ${plural(errors30, "error")}.`}
        labels={labels}
        kind="bars"
        format={formatCount}
        series={[
          { name: "Calls", color: "var(--chart-1)", values: days.map((d) => d.chatCalls) },
          { name: "Errors", color: "var(--chart-3)", values: days.map((d) => d.chatErrors) },
        ]}
      />
      <Chart
        id="chart-latency"
        title="Webhook latency per day"
        summary={
          total.latencyMs.p50 === null
            ? "No chat call has reached a webhook yet."
            : `Overall median ${ms(total.latencyMs.p50)}, 95th percentile ${ms(total.latencyMs.p95 ?? 0)}.`
        }
        labels={labels}
        kind="lines"
        format={ms}
        series={[
          { name: "Median (p50)", color: "var(--chart-1)", values: days.map((d) => d.latencyP50) },
          { name: "95th percentile (p95)", color: "var(--chart-4)", values: days.map((d) => d.latencyP95) },
        ]}
      />
      <Chart
        id="chart-uptime"
        title="Uptime per day (share of health checks passed)"
        summary={
          checks30 === 0 ? "No health checks ran in this period." : `${plural(checks30, "health check")} in the last ${SERIES_DAYS} days.`
        }
        labels={labels}
        kind="lines"
        format={formatPercent}
        series={[{ name: "Uptime", color: "var(--chart-2)", values: days.map((d) => d.uptime) }]}
      />

      <section className={styles.panel} aria-labelledby="by-agent-heading">
        <h2 id="by-agent-heading">By agent</h2>
        {stats.agents.length === 0 ? (
          <p>You have no listings yet.</p>
        ) : (
          <TableScrollRegion label="By agent">
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col" className={styles.num}>
                    Rentals
                  </th>
                  <th scope="col" className={styles.num}>
                    Active
                  </th>
                  <th scope="col" className={styles.num}>
                    Released
                  </th>
                  <th scope="col" className={styles.num}>
                    In escrow
                  </th>
                  <th scope="col" className={styles.num}>
                    Chat calls
                  </th>
                  <th scope="col" className={styles.num}>
                    Error rate
                  </th>
                  <th scope="col" className={styles.num}>
                    p50
                  </th>
                  <th scope="col" className={styles.num}>
                    p95
                  </th>
                  <th scope="col" className={styles.num}>
                    Uptime 7 d
                  </th>
                </tr>
              </thead>
              <tbody>
                {stats.agents.map((a) => (
                  <tr key={a.id}>
                    <th scope="row">{a.name}</th>
                    <td className={styles.num}>{formatCount(a.rentals.total)}</td>
                    <td className={styles.num}>{formatCount(a.rentals.active)}</td>
                    <td className={styles.num}>{formatUsdcNumber(a.revenue.released)}</td>
                    <td className={styles.num}>{formatUsdcNumber(a.revenue.inEscrow)}</td>
                    <td className={styles.num}>{formatCount(a.chatCalls)}</td>
                    <td className={styles.num}>{formatPercent(a.errorRate * 100)}</td>
                    <td className={styles.num}>{a.latencyMs.p50 === null ? "—" : ms(a.latencyMs.p50)}</td>
                    <td className={styles.num}>{a.latencyMs.p95 === null ? "—" : ms(a.latencyMs.p95)}</td>
                    <td className={styles.num}>
                      {a.uptime7d === null ? "—" : formatPercent(a.uptime7d)}
                      {a.uptimeSource && (
                        <>
                          <br />
                          <span className="hint">{UPTIME_SOURCE[a.uptimeSource]}</span>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScrollRegion>
        )}
        <p className="hint">
          Uptime over the last 7 days counts every minute of an agent&apos;s rentals, each measured while the rental ran, once it was rented
          for an hour or more in them (the marketplace shows the same figure); otherwise the scheduled health checks every 15 minutes. The
          chart above counts the health checks only.
        </p>
      </section>
    </main>
  );
}
