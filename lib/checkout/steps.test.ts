import { describe, expect, it } from "vitest";
import {
  AGENT_CHECK,
  announcement,
  failedStep,
  initialSteps,
  isDone,
  isRunning,
  STEP_LABEL,
  type StepAction,
  stepsFor,
  stepsReducer,
  waitingForWallet,
} from "@/lib/checkout/steps";

describe("checkout stepper", () => {
  const run = (actions: StepAction[], plan: "permit" | "approve" = "permit") => actions.reduce(stepsReducer, initialSteps(plan));

  it("has the permit and the approve plans", () => {
    expect(stepsFor("permit")).toEqual(["quote", "permit", "pay", "confirm"]);
    expect(stepsFor("approve")).toEqual(["quote", "approve", "pay", "confirm"]);
    // In the page's words: no contract function names.
    expect(stepsFor("permit").map((id) => STEP_LABEL[id])).toEqual(["Quote", "Approve the payment", "Pay", "Confirm"]);
    expect(stepsFor("approve").map((id) => STEP_LABEL[id])).toEqual(["Quote", "Approve USDC", "Pay", "Confirm"]);
  });

  it("moves a step through wallet → pending → confirmed", () => {
    let s = run([{ type: "pending", step: "quote" }]);
    expect(isRunning(s)).toBe(true);
    expect(waitingForWallet(s)).toBe(false);
    s = run([
      { type: "confirmed", step: "quote" },
      { type: "wallet", step: "permit", detail: "Sign" },
    ]);
    expect(waitingForWallet(s)).toBe(true);
    expect(announcement(s)).toBe("Approve the payment: Waiting for your wallet (Sign)");
    s = stepsReducer(s, { type: "confirmed", step: "permit" });
    expect(isRunning(s)).toBe(false);
    expect(s.steps.permit.status).toBe("confirmed");
  });

  it("keeps a failure's reason and restarts from the failed step", () => {
    let s = run([
      { type: "confirmed", step: "quote" },
      { type: "confirmed", step: "permit" },
      { type: "wallet", step: "pay" },
      {
        type: "failed",
        step: "pay",
        error: "You declined the request in your wallet. Nothing was sent.",
        rejected: true,
      },
    ]);
    expect(failedStep(s)).toBe("pay");
    expect(s.steps.pay).toMatchObject({ status: "failed", rejected: true });
    expect(isRunning(s)).toBe(false);
    expect(announcement(s)).toBe("Pay failed: You declined the request in your wallet. Nothing was sent.");
    s = stepsReducer(s, { type: "resetFrom", step: "pay" });
    expect(failedStep(s)).toBeNull();
    expect(s.steps.quote.status).toBe("confirmed");
    expect(s.steps.pay.status).toBe("idle");
    expect(s.steps.confirm.status).toBe("idle");
  });

  it("switches plan and resets", () => {
    let s = run([
      { type: "plan", plan: "approve" },
      { type: "confirmed", step: "approve" },
      { type: "confirmed", step: "pay" },
      { type: "confirmed", step: "confirm" },
    ]);
    expect(s.plan).toBe("approve");
    expect(isDone(s)).toBe(true);
    s = stepsReducer(s, { type: "reset" });
    expect(s.plan).toBe("approve");
    expect(Object.values(s.steps).every((x) => x.status === "idle")).toBe(true);
    expect(announcement(s)).toBe("");
  });

  it("says the check of the agent the quote starts with, in the live region too", () => {
    expect(AGENT_CHECK.idle("Echo Agent")).toBe("First checks that Echo Agent is answering");
    let s = run([{ type: "pending", step: "quote", detail: AGENT_CHECK.running("Echo Agent") }]);
    expect(announcement(s)).toBe("Quote: Pending (Checking that Echo Agent is answering…)");
    s = stepsReducer(s, { type: "confirmed", step: "quote", detail: AGENT_CHECK.answered("Echo Agent", 42, "26 Nov 2026, 10:15 UTC") });
    expect(announcement(s)).toBe("Quote: Confirmed (Echo Agent answered in 42 ms. Valid until 26 Nov 2026, 10:15 UTC)");
  });
});
