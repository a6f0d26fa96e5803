import type { ReactNode } from "react";
import styles from "../dashboard.module.css";

// A table that may be wider than a phone scrolls sideways in this box. The box is a named region
// in the tab order, so a keyboard user can focus it and scroll with the arrow keys, and a screen
// reader says what it holds (WCAG 2.1.1; axe's scrollable-region-focusable).
export function TableScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (see above).
    <section className={styles.tableWrap} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
