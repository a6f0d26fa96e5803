"use client";

import { useId, useState } from "react";
import { connectAs, WalletStepper } from "@/app/dashboard/_components/wallet-stepper";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { describeExtensionError, sendExtension } from "@/lib/checkout/extend-rental";
import { formatDateTime } from "@/lib/format/date-time";
import { formatUsdc } from "@/lib/format/usdc";

type Duration = "hour" | "day" | "month";
const SECONDS: Record<Duration, number> = { hour: 3_600, day: 86_400, month: 30 * 86_400 };
const FEE_MICRO = 1_000_000n;
const MAX_PERIODS = 12;

export type ExtendStepperProps = {
  code: string;
  /** The rental's current end (ISO). */
  endsAt: string;
  /** The durations it may be extended by (its own and longer ones the listing sells), with their price in micro-USDC. */
  prices: { durationType: Duration; micro: string }[];
  /** The wallet that paid for the rental, lower-case: the only one the escrow takes. */
  renterAddress: string;
  chain: EscrowChain;
};

const unit = (d: Duration, n: number) => `${n} ${d}${n === 1 ? "" : "s"}`;

/**
 * Extending a rental on the wallet stepper: choose N periods of the rental's duration type (or a
 * longer one), see the new end and the total, then 1. connect the wallet that paid, 2. sign one
 * permit and send one transaction (extendRentalWithPermit); the page then shows the new end.
 */
export function ExtendStepper({ code, endsAt, prices, renterAddress, chain }: ExtendStepperProps) {
  const [durationType, setDurationType] = useState<Duration>(prices[0].durationType);
  const [periods, setPeriods] = useState(1);
  const ids = { periods: useId(), duration: useId() };
  const price = BigInt(prices.find((p) => p.durationType === durationType)?.micro ?? "0");
  const total = price * BigInt(periods) + FEE_MICRO;
  const newEnd = new Date(new Date(endsAt).getTime() + SECONDS[durationType] * periods * 1000);
  return (
    <WalletStepper<{ endsAt: string }>
      flow={{
        chain,
        connect: connectAs(
          chain,
          renterAddress,
          (a) =>
            `Your wallet is on account ${short(a)}; only the wallet that paid for this rental (${short(renterAddress)}) can extend it. Switch to it, then press “Connect wallet” again.`,
        ),
        send: (config, account, onStep) => sendExtension(config, chain, { code, periods, durationType, account }, onStep),
        describeError: (error) => describeExtensionError(error, chain),
        reconnectAfter: (error) => error instanceof WalletProblem && /changed accounts/.test(error.message),
      }}
      words={{
        wallet: `the wallet that paid for this rental (${short(renterAddress)})`,
        title: `Extend by ${unit(durationType, periods)}: ${formatUsdc(total)} USDC`,
        hint: `New end: ${formatDateTime(newEnd)}. ${formatUsdc(price * BigInt(periods))} USDC for the time and a 1 USDC fee, in one transaction (you sign a USDC permit, then the transaction). The code, the chat and the conversation stay the same.`,
        send: "Extend the rental",
        checking: "Checking that the agent answers and pricing the extension…",
        confirmed: (done) => `Extended: the rental now ends ${formatDateTime(new Date(done.endsAt))}. Keep chatting with the same code.`,
        reload: "Reload to see the new end",
      }}
    >
      <div className="field-row" style={{ display: "flex", gap: "1rem", flexWrap: "wrap", marginBottom: "0.75rem" }}>
        <p>
          <label htmlFor={ids.periods}>Periods</label>
          <br />
          <input
            id={ids.periods}
            type="number"
            min={1}
            max={MAX_PERIODS}
            value={periods}
            onChange={(event) => setPeriods(Math.min(MAX_PERIODS, Math.max(1, Math.floor(Number(event.target.value) || 1))))}
          />
        </p>
        <p>
          <label htmlFor={ids.duration}>Of</label>
          <br />
          <select id={ids.duration} value={durationType} onChange={(event) => setDurationType(event.target.value as Duration)}>
            {prices.map((p) => (
              <option key={p.durationType} value={p.durationType}>
                {p.durationType}s ({formatUsdc(BigInt(p.micro))} USDC each)
              </option>
            ))}
          </select>
        </p>
      </div>
    </WalletStepper>
  );
}
