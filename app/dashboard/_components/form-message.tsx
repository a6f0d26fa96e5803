import styles from "../dashboard.module.css";
import forms from "./forms.module.css";

// The sentence a form action returned, announced to screen readers. The live region is always
// rendered (empty until there is something to say) so announcements are not missed.
export function FormMessage({ state, id }: { state: { ok: boolean; message: string } | null; id?: string }) {
  return (
    <div aria-live="polite" id={id}>
      {state && (
        <p role={state.ok ? "status" : "alert"} className={state.ok ? styles.success : styles.alert}>
          {state.message}
        </p>
      )}
    </div>
  );
}

/** The message of one field, linked to its control with aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={forms.fieldError}>
      {message}
    </p>
  );
}
