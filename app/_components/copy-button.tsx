"use client";
import { useClipboardCopy } from "@/app/_components/use-clipboard-copy";

// Copies a value to the clipboard and says so (to screen readers too). Without JavaScript the
// value stays on screen to select by hand.
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { state, copy } = useClipboardCopy();
  return (
    <span>
      <button type="button" className="button" onClick={() => void copy(value)} aria-label={label}>
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <span role="status" className="visually-hidden">
        {state === "copied" ? "Copied to the clipboard." : state === "failed" ? "Could not copy; select the text and copy it by hand." : ""}
      </span>
      {state === "failed" && <span className="hint"> Could not copy: select the text and copy it by hand.</span>}
    </span>
  );
}
