"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import type { DisputeStepperProps } from "./dispute-stepper";

// wagmi, viem and the wallet code are a separate chunk, fetched only when the renter starts a
// dispute, so the rental page stays light for everyone else.
const DisputeStepper = dynamic(() => import("./dispute-stepper").then((m) => m.DisputeStepper), {
  ssr: false,
  loading: () => (
    <p role="status" className="hint">
      Loading the wallet connection…
    </p>
  ),
});

export function DisputePanel(props: Omit<DisputeStepperProps, "autoStart">) {
  const [started, setStarted] = useState(false);
  if (started) return <DisputeStepper {...props} autoStart />;
  return (
    <button type="button" className="button" onClick={() => setStarted(true)}>
      Open a dispute…
    </button>
  );
}
