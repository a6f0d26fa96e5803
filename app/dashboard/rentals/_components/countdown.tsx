"use client";

import { useEffect, useState } from "react";
import { describeTimeLeft, formatTimeLeft } from "@/lib/format/time-left";
import styles from "../renter.module.css";

/**
 * Time left until `endsAt`, ticking every second. The visible text is fixed-width digits so the
 * row never reflows as it counts; screen readers get the end in words (role="timer" is not
 * announced on each tick) and can read the current remaining time on demand.
 */
export function Countdown({ endsAt, serverNow }: { endsAt: string; serverNow: string }) {
  const end = new Date(endsAt).getTime();
  // The first render uses the server's clock so server HTML and hydration agree.
  const [now, setNow] = useState(() => new Date(serverNow).getTime());
  useEffect(() => {
    setNow(Date.now());
    if (end <= Date.now()) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= end) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [end]);
  const left = end - now;
  return (
    <span className={styles.countdown} role="timer" aria-label={describeTimeLeft(left)}>
      <span aria-hidden="true">{formatTimeLeft(left)}</span>
    </span>
  );
}
