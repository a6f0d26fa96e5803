// One example: its caption, the text (scrolls sideways on a narrow screen, never widens the page)
// and a button that copies it exactly.
import { CopyButton } from "@/app/_components/copy-button";
import type { CodeExample } from "@/lib/docs/code-example";
import styles from "./docs.module.css";

export function CodeBlock({ example, copyLabel }: { example: CodeExample; copyLabel: string }) {
  return (
    <figure className={styles.example}>
      <figcaption>
        <span>{example.label}</span>
        <CopyButton value={example.code} label={copyLabel} />
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take the focus, so keyboard users can scroll it */}
      <pre tabIndex={0}>
        <code>{example.code}</code>
      </pre>
    </figure>
  );
}
