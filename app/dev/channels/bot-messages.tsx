"use client";
// What a bot sent, newest first, kept current without a reload: the page renders the messages so
// far, then this asks /api/dev/channels for newer ones every second (development only, one tab).
import { useEffect, useState } from "react";
import type { BotMessage } from "@/lib/channels/dev/list-bot-messages";

const POLL_MS = 1_000;
const SHOWN = 30;

type Props = { platform: string; messages: BotMessage[]; next: number };

export function BotMessages({ platform, messages: initial, next: initialNext }: Props) {
  const [messages, setMessages] = useState(initial);
  useEffect(() => {
    let next = initialNext;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const res = await fetch(`/api/dev/channels?${new URLSearchParams({ platform, since: String(next) })}`, { cache: "no-store" });
        if (res.ok) {
          const body = (await res.json()) as { messages: BotMessage[]; next: number };
          next = body.next;
          if (body.messages.length > 0) setMessages((shown) => [...shown, ...body.messages].slice(-SHOWN));
        }
      } catch {
        // The dev server restarting: the next poll tries again.
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [platform, initialNext]);

  return (
    <div aria-live="polite" aria-relevant="additions">
      {messages.length === 0 && <p>Nothing yet.</p>}
      {[...messages].reverse().map((m) => (
        <article key={m.seq} style={{ border: "1px solid var(--border)", borderRadius: 6, padding: "8px 12px", margin: "8px 0" }}>
          <div className="muted" style={{ fontSize: 14 }}>
            {m.method}
          </div>
          <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: 0 }}>{m.text}</pre>
        </article>
      ))}
    </div>
  );
}
