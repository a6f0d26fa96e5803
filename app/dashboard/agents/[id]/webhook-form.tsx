"use client";
// Connect a webhook and test it. "Generate token" draws 32 random bytes in the browser
// (crypto.getRandomValues) as 43 base64url characters; the token is never sent anywhere but here
// and the owner's runtime.
import Link from "next/link";
import { useActionState, useId, useRef, useState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { formatReplyTime } from "@/lib/format/reply-time";
import { listingStatusLabel } from "@/lib/format/status-label";
import { FieldError, FormMessage } from "../../_components/form-message";
import forms from "../../_components/forms.module.css";
import { generateWebhookToken } from "../../_components/webhook-token";
import styles from "../../dashboard.module.css";
import type { ConnectState } from "../actions";
import { SigningSecretShown } from "./signing-secret";

type Action = (prev: ConnectState | null, form: FormData) => Promise<ConnectState>;

// The saved webhook as its owner may see it: the host of its URL (null when the stored URL can
// no longer be read), never the token, the path or the query; and whether it answered its latest
// test or health check (the listing is available), so a failed one never reads "Connected".
type Connection = { host: string | null; answering: boolean } | null;

function ConnectionStatus({ connection }: { connection: Connection }) {
  if (!connection) return <p className="hint">No webhook is connected yet.</p>;
  if (!connection.host) {
    return (
      <p className="hint">A webhook is saved, but its stored URL can no longer be read. Enter its URL and token again to connect it.</p>
    );
  }
  const host = <strong style={{ overflowWrap: "anywhere" }}>{connection.host}</strong>;
  return connection.answering ? (
    <p className="hint">
      Connected to {host}. The URL and token are stored encrypted, so only the host is shown; enter both again to replace or re-test the
      webhook.
    </p>
  ) : (
    <p className="hint">
      A webhook at {host} is saved, but it did not answer its latest test or health check. The URL and token are stored encrypted, so only
      the host is shown; enter both again to re-test it or to use another.
    </p>
  );
}

export function WebhookForm({ action, connection }: { action: Action; connection: Connection }) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  const [token, setToken] = useState("");
  const tokenRef = useRef<HTMLInputElement>(null);
  const errors = state && !state.ok && state.fieldErrors ? state.fieldErrors : {};
  return (
    <form action={formAction} className={forms.form} noValidate>
      <ConnectionStatus connection={connection} />
      <div className="field">
        <label htmlFor={`${id}-url`}>Webhook URL</label>
        <input
          id={`${id}-url`}
          name="webhookUrl"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://agent.example.com/hooks/agent"
          defaultValue={state?.values?.webhookUrl}
          required
          aria-invalid={errors.webhookUrl ? true : undefined}
          aria-describedby={`${id}-url-hint${errors.webhookUrl ? ` ${id}-url-error` : ""}`}
        />
        <p id={`${id}-url-hint`} className="hint">
          Where your agent runs: a public https URL that accepts POST (conventionally ending in /hooks/agent). What it receives and answers:{" "}
          <Link href="/docs/webhooks">the webhook contract</Link>.
        </p>
        <FieldError id={`${id}-url-error`} message={errors.webhookUrl} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-token`}>Webhook token</label>
        <div className={forms.inputRow}>
          <input
            id={`${id}-token`}
            ref={tokenRef}
            name="webhookToken"
            type="text"
            className={forms.mono}
            autoComplete="off"
            spellCheck={false}
            minLength={32}
            required
            value={token}
            onChange={(event) => setToken(event.currentTarget.value)}
            aria-invalid={errors.webhookToken ? true : undefined}
            aria-describedby={`${id}-token-hint${errors.webhookToken ? ` ${id}-token-error` : ""}`}
          />
          <button
            type="button"
            className="button"
            onClick={() => {
              setToken(generateWebhookToken());
              tokenRef.current?.focus();
            }}
          >
            Generate token
          </button>
          {token && <CopyButton value={token} label="Copy webhook token" />}
        </div>
        <p id={`${id}-token-hint`} className="hint">
          A secret of 32 or more characters. We send it as <code>Authorization: Bearer &lt;token&gt;</code>; configure the same value in
          your agent&apos;s runtime. It is stored encrypted and cannot be shown again
          {connection ? " (the saved one is replaced)" : ""}.
        </p>
        <FieldError id={`${id}-token-error`} message={errors.webhookToken} />
      </div>
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={pending}>
          Test connection
        </button>
        <span role="status" className="hint">
          {pending ? "Testing the webhook…" : ""}
        </span>
      </div>
      <FormMessage state={state} />
      {state?.test && state.signingSecret && (
        <SigningSecretShown secret={state.signingSecret} when={state.test.ok ? "last-time" : "until-a-test-passes"} />
      )}
      {state?.test && (
        <dl className={styles.facts} aria-label="Test result">
          <div>
            <dt>Result</dt>
            <dd>{state.test.ok ? "Passed" : "Failed"}</dd>
          </div>
          <div>
            <dt>HTTP status</dt>
            <dd>{state.test.statusCode ?? "no answer"}</dd>
          </div>
          <div>
            <dt>Latency</dt>
            <dd>{formatReplyTime(state.test.latencyMs)}</dd>
          </div>
          <div>
            <dt>Listing status now</dt>
            <dd>{listingStatusLabel({ status: state.test.status, webhookConnected: true }).label}</dd>
          </div>
          {/* The recorded code when no HTTP status says it already (the words are in the message). */}
          {state.test.statusCode === null && state.test.error && (
            <div>
              <dt>Detail for developers</dt>
              <dd>
                <code style={{ overflowWrap: "anywhere" }}>{state.test.error}</code>
              </dd>
            </div>
          )}
        </dl>
      )}
    </form>
  );
}
