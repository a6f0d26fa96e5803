// The renter's view of a rental's use: messages by day, errors and the median reply time, from the
// service's call records (API, playground and chat bots alike; never the text).
import { Chart } from "@/app/dashboard/_components/charts";
import { formatDate } from "@/lib/format/date-time";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { formatReplyTime } from "@/lib/format/reply-time";
import type { Channel } from "@/lib/generated/prisma/enums";
import type { RentalUsage as Usage } from "@/lib/rentals/load-rental-usage";
import styles from "../renter.module.css";

// Every channel a call can come from (satisfies: a new one does not go unlisted), A2A included.
const CHANNEL_WORDS = {
  API: "the API and the playground",
  Telegram: "Telegram",
  Discord: "Discord",
  Slack: "Slack",
  WhatsApp: "WhatsApp",
  Teams: "Teams",
  GoogleChat: "Google Chat",
  A2A: "A2A (other AI agents)",
} as const satisfies Record<Channel, string>;

export function RentalUsage({ usage }: { usage: Usage }) {
  const channels = (Object.keys(CHANNEL_WORDS) as (keyof typeof CHANNEL_WORDS)[]).flatMap((channel) => {
    const n = usage.byChannel[channel];
    return n ? [[channel, n] as const] : [];
  });
  return (
    <>
      <dl className={styles.facts}>
        <dt>Messages</dt>
        <dd>{formatCount(usage.messages)}</dd>
        <dt>Errors</dt>
        <dd>
          {formatCount(usage.errors)}
          {usage.errors > 0 && <span className="hint"> (the agent failed, timed out or could not be reached)</span>}
        </dd>
        <dt>Median reply</dt>
        <dd>{usage.medianMs === null ? "—" : formatReplyTime(usage.medianMs)}</dd>
        {channels.length > 1 && (
          <>
            <dt>From</dt>
            <dd>{channels.map(([channel, n]) => `${CHANNEL_WORDS[channel]}: ${formatCount(n)}`).join(" · ")}</dd>
          </>
        )}
      </dl>
      {/* A chart of one day would be one bar: the figures above say it already. */}
      {usage.messages > 0 && usage.days.length > 1 && (
        <Chart
          id="chart-usage"
          title="Messages per day"
          summary={`${plural(usage.messages, "message")} over ${plural(usage.days.length, "day")}, ${plural(usage.errors, "error")}.`}
          labels={usage.days.map((d) => formatDate(new Date(d.date)))}
          kind="bars"
          format={formatCount}
          series={[
            { name: "Messages", color: "var(--chart-1)", values: usage.days.map((d) => d.messages) },
            { name: "Errors", color: "var(--chart-3)", values: usage.days.map((d) => d.errors) },
          ]}
        />
      )}
    </>
  );
}
