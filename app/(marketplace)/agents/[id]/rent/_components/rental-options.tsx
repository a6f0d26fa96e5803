"use client";
// The duration and channel choice. Both are fixed (disabled) while a payment runs or once one was sent.
import { channelName } from "@/lib/channels/channel-name";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import type { Duration } from "@/lib/checkout/checkout-api";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "./checkout.module.css";

export type RentalOptionsProps = {
  priced: Duration[];
  // Micro-USDC as decimal strings, only for the durations the agent is priced for.
  prices: Partial<Record<Duration, string>>;
  duration: Duration;
  onDuration: (duration: Duration) => void;
  channels: CheckoutChannel[];
  channel: CheckoutChannel;
  onChannel: (channel: CheckoutChannel) => void;
  locked: boolean;
};

export function RentalOptions({ priced, prices, duration, onDuration, channels, channel, onChannel, locked }: RentalOptionsProps) {
  return (
    <>
      <fieldset className={styles.group} disabled={locked}>
        <legend>Duration</legend>
        {priced.map((d) => (
          <label key={d} className={styles.choice}>
            <input type="radio" name="duration" value={d} checked={duration === d} onChange={() => onDuration(d)} />
            <span>
              {DURATION_LABEL[d].one} <span className="hint">— {formatUsdc(BigInt(prices[d]!))}</span>
            </span>
          </label>
        ))}
      </fieldset>

      <fieldset className={styles.group} disabled={locked}>
        <legend>Channel</legend>
        {channels.map((c) => (
          <label key={c} className={styles.choice}>
            <input type="radio" name="channel" value={c} checked={channel === c} onChange={() => onChannel(c)} />
            <span>{c === "API" ? "API (HTTPS, with your code as the key)" : channelName(c)}</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}
