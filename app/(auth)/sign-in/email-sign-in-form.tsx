"use client";

import { type FormEvent, useId, useState } from "react";
import styles from "./sign-in.module.css";

type State = { kind: "idle" } | { kind: "sending" } | { kind: "sent"; email: string } | { kind: "error"; message: string };

// Posts {email} as JSON to /api/auth/email, with `next` (the page the link is to open, checked by
// the server page that renders this and again by the route) when a page was asked for. The answer
// is the same whether or not the address has an account, and so is what this form says.
export function EmailSignInForm({ next }: { next: string | null }) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: "idle" });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setState({ kind: "sending" });
    try {
      const res = await fetch("/api/auth/email", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(next ? { email, next } : { email }),
      });
      if (res.status === 202) return setState({ kind: "sent", email });
      const body = (await res.json().catch(() => null)) as { error?: string } | null;
      setState({ kind: "error", message: body?.error ?? `The server answered HTTP ${res.status}; please try again.` });
    } catch {
      setState({ kind: "error", message: "Could not reach the server. Check your connection and try again." });
    }
  }

  return (
    <form className={styles.form} onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-email`}>E-mail address</label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={254}
          aria-describedby={state.kind === "error" ? `${id}-error` : undefined}
          aria-invalid={state.kind === "error" || undefined}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={state.kind === "sending"}>
        {state.kind === "sending" ? "Sending…" : "E-mail me a sign-in link"}
      </button>
      <div aria-live="polite" style={{ flexBasis: "100%" }}>
        {state.kind === "sent" && (
          <p className={styles.notice}>
            Check your inbox: if {state.email} can receive mail, a sign-in link is on its way. It works once, for 15 minutes.
          </p>
        )}
        {state.kind === "error" && (
          <p id={`${id}-error`} role="alert" className={styles.alert}>
            {state.message}
          </p>
        )}
      </div>
    </form>
  );
}
