"use client";

import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { formatCount } from "@/lib/format/number";
import { CHAT_MESSAGE_MAX as MAX_MESSAGE, sendChatMessage } from "@/lib/rentals/chat-client";
import styles from "../renter.module.css";
import { CopyReplyButton } from "./copy-reply-button";
import { expectRentalChange } from "./rental-live-updates";
import { type Exchange, useStoredConversation } from "./use-stored-conversation";
import { WaitingTime } from "./waiting-time";

type Props = {
  code: string;
  agentName: string;
  usable: boolean;
  unusableReason: string | null;
  /** Where this rental's conversation is kept in the browser (not secret: no code in it). */
  storageKey: string;
};

/**
 * A small chat client for one rental: it calls the public renter API from the browser, exactly as
 * a script would (`POST /api/v1/chat` with `X-API-Key: <code>`). Nothing goes through the
 * dashboard's session. Enter sends; Shift+Enter starts a new line. The conversation is kept in
 * this browser across reloads; the newest message is always scrolled into view.
 */
export function ChatPlayground({ code, agentName, usable, unusableReason, storageKey }: Props) {
  const [message, setMessage] = useState("");
  const { log, update: setLog } = useStoredConversation(storageKey);
  const [problem, setProblem] = useState<string | null>(null);
  const transcript = useRef<HTMLOListElement>(null);
  const inputId = useId();
  const hintId = useId();
  const sending = log.some((e) => e.state === "sending");
  const length = [...message].length;

  // Each new message or reply scrolls the conversation to its end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the log changes
  useEffect(() => {
    const list = transcript.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [log]);

  async function send(event?: FormEvent) {
    event?.preventDefault();
    const text = message;
    if (!text.trim()) {
      setProblem("Write a message first.");
      return;
    }
    if (length > MAX_MESSAGE) {
      setProblem(`The message is ${formatCount(length)} characters; the API takes at most ${formatCount(MAX_MESSAGE)}.`);
      return;
    }
    setProblem(null);
    const id = Math.max(0, ...log.map((e) => e.id)) + 1;
    setLog((l) => [...l, { id, message: text, state: "sending", startedAt: Date.now() }]);
    setMessage("");
    const started = performance.now();
    const result = await sendChatMessage(code, text);
    const entry: Exchange = result.ok
      ? {
          id,
          message: text,
          state: "ok",
          reply: result.reply,
          json: result.json,
          ms: Math.round(performance.now() - started),
        }
      : { id, message: text, state: "error", error: result.error };
    setLog((l) => l.map((e) => (e.id === id ? entry : e)));
    expectRentalChange("message"); // the usage counts it once the service has recorded the call
    // Not delivered: give the text back (unless a new one is being typed) so Send retries it.
    if (!result.ok) setMessage((current) => current || text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!sending && usable) void send();
    }
  }

  return (
    <div className={styles.playground}>
      {!usable && unusableReason && (
        <div className="notice">
          <p>{unusableReason}</p>
        </div>
      )}
      <ol
        ref={transcript}
        className={styles.transcript}
        aria-label={`Conversation with ${agentName}`}
        aria-live="polite"
        aria-relevant="additions text"
      >
        {log.length === 0 ? (
          <li className={`${styles.transcriptEmpty} muted`}>
            No messages yet. What you send here goes to the agent through <code>POST /api/v1/chat</code> with your rental code, exactly as
            from a script. The conversation is kept in this browser only: the service never stores what you write.
          </li>
        ) : (
          log.map((e) => (
            <li key={e.id} className={styles.exchange}>
              <p className={styles.you}>
                <span className={styles.who}>You</span>
                <span className={styles.messageText}>{e.message}</span>
              </p>
              {e.state === "sending" ? (
                <p className={`${styles.agent} muted`} aria-busy="true">
                  <span className={styles.who}>{agentName}</span>
                  <span className={styles.typing} aria-hidden="true">
                    <span />
                    <span />
                    <span />
                  </span>{" "}
                  Waiting for the reply… <WaitingTime since={e.startedAt} />
                </p>
              ) : e.state === "ok" ? (
                <div className={styles.agent}>
                  <span className={styles.who}>
                    {agentName}{" "}
                    <span className="hint">
                      ({(e.ms / 1000).toFixed(1)} s{e.json ? ", JSON" : ""})
                    </span>
                  </span>
                  {e.json ? <pre className={styles.json}>{e.reply}</pre> : <p className={styles.messageText}>{e.reply}</p>}
                  <CopyReplyButton text={e.reply} />
                </div>
              ) : (
                <p className={styles.error}>
                  <span className={styles.who}>Not delivered</span>
                  {e.error}
                </p>
              )}
            </li>
          ))
        )}
      </ol>
      <form onSubmit={(e) => void send(e)} className={styles.chatForm} noValidate>
        <label htmlFor={inputId} className={styles.label}>
          Message to {agentName}
        </label>
        <textarea
          id={inputId}
          className={styles.textarea}
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={!usable}
          aria-describedby={hintId}
          aria-invalid={problem ? true : undefined}
        />
        <div className={styles.formRow}>
          <p id={hintId} className="hint">
            Enter sends, Shift+Enter adds a line. {formatCount(length)} / {formatCount(MAX_MESSAGE)} characters.
          </p>
          <button type="submit" className="button button-primary" disabled={!usable || sending} aria-busy={sending}>
            {sending ? "Sending…" : "Send"}
          </button>
        </div>
        <div aria-live="assertive">{problem && <p className={styles.error}>{problem}</p>}</div>
        {log.length > 0 && !sending && (
          <button type="button" className="button button-quiet" onClick={() => setLog(() => [])}>
            Clear the conversation
          </button>
        )}
      </form>
    </div>
  );
}
