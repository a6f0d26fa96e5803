"use client";

import { useEffect, useState } from "react";
import styles from "../renter.module.css";

/** The rental code with a Copy button; the result is announced politely, in place (no reflow). */
export function CopyCode({ code, label = "Copy code" }: { code: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 3000);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className={styles.codeRow}>
      <code className={styles.code}>{code}</code>
      <button type="button" className={`button ${styles.smallButton}`} onClick={() => void copy()} aria-label={`${label} ${code}`}>
        {state === "copied" ? "Copied" : state === "failed" ? "Not copied" : "Copy"}
      </button>
      <span className="visually-hidden" role="status">
        {state === "copied" ? `Code ${code} copied to the clipboard.` : state === "failed" ? "Could not copy: select the code and copy it by hand." : ""}
      </span>
    </span>
  );
}
