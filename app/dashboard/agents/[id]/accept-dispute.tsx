"use client";

import { useState } from "react";
import type { DecisionStepperProps } from "@/app/dashboard/_components/decision-stepper";
import { LazyDecisionStepper } from "@/app/dashboard/_components/lazy-decision-stepper";

// The owner's answer to a dispute: accept it, and the renter gets the price and the fee back at
// once (acceptDispute, from the wallet the listing is paid to). The wallet code loads on press.
export function AcceptDispute(props: Omit<DecisionStepperProps, "decision" | "action">) {
  const [started, setStarted] = useState(false);
  if (started)
    return <LazyDecisionStepper {...props} decision={{ kind: "accept" }} action="Accept the dispute: refund the renter in full" />;
  return (
    <button type="button" className="button" onClick={() => setStarted(true)}>
      Accept the dispute…
    </button>
  );
}
