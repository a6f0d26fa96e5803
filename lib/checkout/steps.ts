// The checkout stepper: which steps a payment takes and what state each is in. Pure, so the
// component stays a thin shell over it and the transitions are unit-tested.
export type PaymentPlan = "permit" | "approve";
export type StepId = "quote" | "permit" | "approve" | "pay" | "confirm";
export type StepStatus = "idle" | "wallet" | "pending" | "confirmed" | "failed";

export type StepState = {
  status: StepStatus;
  // What is happening or happened, in words (a transaction hash, "already approved", …).
  detail?: string;
  // Why it failed, in words, when status is "failed".
  error?: string;
  // The failure was the renter saying no in the wallet: offer Cancel next to Retry.
  rejected?: boolean;
};

export type StepsState = { plan: PaymentPlan; steps: Record<StepId, StepState> };

// The page's words, not the contract's: the permit is the renter approving the payment in the
// wallet, and both plans' payment is "Pay", whichever escrow function it calls.
export const STEP_LABEL: Record<StepId, string> = {
  quote: "Quote",
  permit: "Approve the payment",
  approve: "Approve USDC",
  pay: "Pay",
  confirm: "Confirm",
};

// The quote starts with a live check of the agent's webhook (the server's, before it signs
// anything): the quote step says so before, while and after it runs. Its detail line is always
// there (the stepper's `idle` words), so these words replace one another without moving the page;
// the live region (`announcement`) reads the running and answered ones out.
export const AGENT_CHECK = {
  idle: (agent: string) => `First checks that ${agent} is answering`,
  running: (agent: string) => `Checking that ${agent} is answering…`,
  answered: (agent: string, latencyMs: number, validUntil: string) => `${agent} answered in ${latencyMs} ms. Valid until ${validUntil}`,
};

export function stepsFor(plan: PaymentPlan): StepId[] {
  return plan === "permit" ? ["quote", "permit", "pay", "confirm"] : ["quote", "approve", "pay", "confirm"];
}

export const STATUS_LABEL: Record<StepStatus, string> = {
  idle: "Not started",
  wallet: "Waiting for your wallet",
  pending: "Pending",
  confirmed: "Confirmed",
  failed: "Failed",
};

export type StepAction =
  | { type: "plan"; plan: PaymentPlan }
  | { type: "wallet"; step: StepId; detail?: string }
  | { type: "pending"; step: StepId; detail?: string }
  | { type: "confirmed"; step: StepId; detail?: string }
  | { type: "failed"; step: StepId; error: string; rejected?: boolean }
  // Retry from a step: it and every later step go back to idle.
  | { type: "resetFrom"; step: StepId }
  | { type: "reset" };

const IDLE: StepState = { status: "idle" };

export function initialSteps(plan: PaymentPlan = "permit"): StepsState {
  return { plan, steps: { quote: IDLE, permit: IDLE, approve: IDLE, pay: IDLE, confirm: IDLE } };
}

export function stepsReducer(state: StepsState, action: StepAction): StepsState {
  switch (action.type) {
    case "plan":
      return { ...state, plan: action.plan };
    case "reset":
      return initialSteps(state.plan);
    case "resetFrom": {
      const order = stepsFor(state.plan);
      const from = order.indexOf(action.step);
      const steps = { ...state.steps };
      for (const id of order.slice(Math.max(from, 0))) steps[id] = IDLE;
      return { ...state, steps };
    }
    case "wallet":
    case "pending":
    case "confirmed":
      return { ...state, steps: { ...state.steps, [action.step]: { status: action.type, detail: action.detail } } };
    case "failed":
      return {
        ...state,
        steps: {
          ...state.steps,
          [action.step]: {
            ...state.steps[action.step],
            status: "failed",
            error: action.error,
            rejected: action.rejected,
          },
        },
      };
  }
}

// The step a Retry restarts from: the first failed one in the plan's order.
export function failedStep(state: StepsState): StepId | null {
  return stepsFor(state.plan).find((id) => state.steps[id].status === "failed") ?? null;
}

// A wallet prompt is open: the only time the pay controls are disabled (Cancel stays usable).
export function waitingForWallet(state: StepsState): boolean {
  return stepsFor(state.plan).some((id) => state.steps[id].status === "wallet");
}

export function isRunning(state: StepsState): boolean {
  return stepsFor(state.plan).some((id) => state.steps[id].status === "wallet" || state.steps[id].status === "pending");
}

export function isDone(state: StepsState): boolean {
  return state.steps.confirm.status === "confirmed";
}

// One sentence for the live region: the latest step that is not idle.
export function announcement(state: StepsState): string {
  const order = stepsFor(state.plan);
  for (const id of [...order].reverse()) {
    const s = state.steps[id];
    if (s.status === "idle") continue;
    const label = STEP_LABEL[id];
    if (s.status === "failed") return `${label} failed: ${s.error ?? "unknown reason"}`;
    return `${label}: ${STATUS_LABEL[s.status]}${s.detail ? ` (${s.detail})` : ""}`;
  }
  return "";
}
