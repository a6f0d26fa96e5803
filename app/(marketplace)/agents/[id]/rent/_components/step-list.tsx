"use client";
// The payment stepper: one item per step of the plan, with its status, detail or error. A step
// given idle words (`idle`: the quote's "First checks that <agent> is answering") keeps its detail
// line at all times, at least three lines high, so the words of its check replace one another in
// place instead of moving the steps below.
import { STATUS_LABEL, STEP_LABEL, type StepId, type StepsState } from "@/lib/checkout/steps";
import styles from "./checkout.module.css";

export function StepList({ steps, order, idle = {} }: { steps: StepsState; order: StepId[]; idle?: Partial<Record<StepId, string>> }) {
  return (
    <ol className={styles.stepper} aria-labelledby="steps-heading">
      {order.map((id, index) => {
        const s = steps.steps[id];
        const reserved = idle[id] !== undefined;
        const detail = s.detail ?? (s.status === "idle" ? idle[id] : undefined);
        const place = reserved ? ` ${styles.stepDetailReserved}` : "";
        return (
          <li key={id} className={styles.step} data-testid={`step-${id}`} data-status={s.status}>
            <span className={styles.stepIndex} aria-hidden="true">
              {s.status === "confirmed" ? "✓" : s.status === "failed" ? "!" : index + 1}
            </span>
            <span className={styles.stepBody}>
              <span className={styles.stepLabel}>{STEP_LABEL[id]}</span>{" "}
              <span className={`${styles.stepStatus} ${styles[`status-${s.status}`] ?? ""}`}>{STATUS_LABEL[s.status]}</span>
              {s.status === "failed" && s.error ? (
                <span className={`${styles.stepError}${place}`}>{s.error}</span>
              ) : (
                (detail || reserved) && (
                  <span className={`${styles.stepDetail}${place}`} data-testid={reserved ? `step-${id}-detail` : undefined}>
                    {detail}
                  </span>
                )
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
