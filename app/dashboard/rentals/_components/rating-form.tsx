"use client";

import { useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import styles from "../renter.module.css";
import stars from "./rating-form.module.css";

const COMMENT_MAX = 1000;
const SCORES = [1, 2, 3, 4, 5] as const;
const SCORE_WORDS: Record<(typeof SCORES)[number], string> = {
  1: "poor",
  2: "fair",
  3: "good",
  4: "very good",
  5: "excellent",
};

/**
 * 1–5 stars (native radio buttons: arrow keys move between them, screen readers say "3 stars,
 * good, 3 of 5") and an optional comment. Works without JavaScript; with it, the result appears
 * in place without a reload.
 */
export function RatingForm({ action }: { action: (state: FormState | null, form: FormData) => Promise<FormState> }) {
  const [state, formAction, pending] = useActionState(action, null);
  const commentId = useId();
  const hintId = useId();
  const messageId = useId();
  if (state?.ok) {
    return (
      <p className={styles.success} role="status">
        {state.message}
      </p>
    );
  }
  return (
    <form action={formAction} className={styles.ratingForm} aria-describedby={state?.message ? messageId : undefined}>
      <fieldset className={stars.stars}>
        <legend className={styles.label}>Your score</legend>
        {SCORES.map((n) => (
          <label key={n} className={stars.star}>
            <input type="radio" name="score" value={n} required defaultChecked={state?.values?.score === String(n)} />
            <span aria-hidden="true">{"★".repeat(n)}</span>
            <span className="visually-hidden">
              {plural(n, "star")}, {SCORE_WORDS[n]}
            </span>
            <span className={stars.starNumber} aria-hidden="true">
              {n}
            </span>
          </label>
        ))}
      </fieldset>
      <label htmlFor={commentId} className={styles.label}>
        Comment <span className="hint">(optional)</span>
      </label>
      <textarea
        id={commentId}
        name="comment"
        rows={3}
        maxLength={COMMENT_MAX}
        className={styles.textarea}
        defaultValue={state?.values?.comment}
        aria-describedby={hintId}
      />
      <p id={hintId} className="hint">
        Up to {formatCount(COMMENT_MAX)} characters. Your score and comment count in the agent&apos;s rating on the marketplace. A rental
        can be rated once.
      </p>
      <div aria-live="polite">
        {state?.message && (
          <p id={messageId} className={styles.error}>
            {state.message}
          </p>
        )}
      </div>
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        {pending ? "Saving…" : "Save rating"}
      </button>
    </form>
  );
}
