"use client";
import { useEffect, useState } from "react";

// "Waiting for the reply… 4 s": the seconds since a message was sent, ticking while it waits.
export function WaitingTime({ since }: { since: number }) {
  const [now, setNow] = useState(since);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="hint">{Math.max(0, Math.floor((now - since) / 1000))} s</span>;
}
