"use client";
// The payment stepper: one item per step of the plan, with its status, detail or error.
import { STATUS_LABEL, STEP_LABEL, type StepId, type StepsState } from "@/lib/checkout/steps";
import styles from "./checkout.module.css";

export function StepList({ steps, order }: { steps: StepsState; order: StepId[] }) {
  return (
    <ol className={styles.stepper} aria-labelledby="steps-heading">
      {order.map((id, index) => {
        const s = steps.steps[id];
        return (
          <li key={id} className={styles.step} data-testid={`step-${id}`} data-status={s.status}>
            <span className={styles.stepIndex} aria-hidden="true">
              {s.status === "confirmed" ? "✓" : s.status === "failed" ? "!" : index + 1}
            </span>
            <span className={styles.stepBody}>
              <span className={styles.stepLabel}>{STEP_LABEL[id]}</span>{" "}
              <span className={`${styles.stepStatus} ${styles[`status-${s.status}`] ?? ""}`}>{STATUS_LABEL[s.status]}</span>
              {s.detail && s.status !== "failed" && <span className={styles.stepDetail}>{s.detail}</span>}
              {s.status === "failed" && s.error && <span className={styles.stepError}>{s.error}</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
