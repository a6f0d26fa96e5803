import type { ReactNode } from "react";
import styles from "../dashboard.module.css";

/** One figure of the account (inside a <dl>): its name, its value, and a note under it. */
export function FigureCard({ name, note, children }: { name: string; note: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.card}>
      <dt>{name}</dt>
      <dd>
        {children}
        <span className={styles.cardNote}>{note}</span>
      </dd>
    </div>
  );
}
