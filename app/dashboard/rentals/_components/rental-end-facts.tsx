import { formatDateTime } from "@/lib/format/date-time";
import { Countdown } from "./countdown";

// The end of a rental in a <dl>: when it ends (or ended) and, while it runs, a live countdown.
export function RentalEndFacts({ endsAt, now, running }: { endsAt: Date; now: Date; running: boolean }) {
  return (
    <>
      <dt>{endsAt > now ? "Ends" : "Ended"}</dt>
      <dd>
        <time dateTime={endsAt.toISOString()}>{formatDateTime(endsAt)}</time>
      </dd>
      {running && (
        <>
          <dt>Time left</dt>
          <dd>
            <Countdown endsAt={endsAt.toISOString()} serverNow={now.toISOString()} />
          </dd>
        </>
      )}
    </>
  );
}
