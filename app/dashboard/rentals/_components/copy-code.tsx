"use client";

import { useClipboardCopy } from "@/app/_components/use-clipboard-copy";
import styles from "../renter.module.css";

/** The rental code with a Copy button; the result is announced politely, in place (no reflow). */
export function CopyCode({ code, label = "Copy code" }: { code: string; label?: string }) {
  const { state, copy } = useClipboardCopy(3000);

  return (
    <span className={styles.codeRow}>
      <code className={styles.code}>{code}</code>
      <button type="button" className={`button ${styles.smallButton}`} onClick={() => void copy(code)} aria-label={`${label} ${code}`}>
        {state === "copied" ? "Copied" : state === "failed" ? "Not copied" : "Copy"}
      </button>
      <span className="visually-hidden" role="status">
        {state === "copied"
          ? `Code ${code} copied to the clipboard.`
          : state === "failed"
            ? "Could not copy: select the code and copy it by hand."
            : ""}
      </span>
    </span>
  );
}
