"use client";
import { useClipboardCopy } from "@/app/_components/use-clipboard-copy";
import styles from "../renter.module.css";

// A small "Copy" under an agent's reply; it says "Copied" for two seconds (to screen readers too).
export function CopyReplyButton({ text }: { text: string }) {
  const { state, copy } = useClipboardCopy(2000);
  return (
    <>
      <button type="button" className={`button ${styles.smallButton}`} onClick={() => void copy(text)}>
        {state === "copied" ? "Copied" : state === "failed" ? "Select and copy by hand" : "Copy"}
        <span className="visually-hidden"> the reply</span>
      </button>
      <span role="status" className="visually-hidden">
        {state === "copied" ? "Reply copied to the clipboard." : ""}
      </span>
    </>
  );
}
