"use client";
import { useEffect, useState } from "react";

export type CopyState = "idle" | "copied" | "failed";

// Copies text to the clipboard and remembers how it went, for the button label and the
// screen-reader announcement. With `resetAfterMs` the state returns to idle after a while.
export function useClipboardCopy(resetAfterMs?: number) {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle" || resetAfterMs === undefined) return;
    const timer = setTimeout(() => setState("idle"), resetAfterMs);
    return () => clearTimeout(timer);
  }, [state, resetAfterMs]);

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return { state, copy };
}
