"use client";

import dynamic from "next/dynamic";

// wagmi, viem and the wallet code are a separate chunk, fetched only when someone presses a
// decision's button, so the listing and console pages stay light.
export const LazyDecisionStepper = dynamic(() => import("./decision-stepper").then((m) => m.DecisionStepper), {
  ssr: false,
  loading: () => (
    <p role="status" className="hint">
      Loading the wallet connection…
    </p>
  ),
});
