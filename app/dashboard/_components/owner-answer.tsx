// The owner's answer to a dispute, as the renter (their rental page) and the arbiter (the console)
// read it. It is the owner's own text: React renders it as text, never as HTML, and the quote keeps
// its line breaks.
import { formatDateTime } from "@/lib/format/date-time";
import styles from "../dashboard.module.css";

type Props = {
  answer: string | null;
  answeredAt: Date | null;
  /** What to say when the owner has not answered (nothing when left out). */
  unanswered?: string;
  /** Whose answer, in the reader's words: "Your answer" on the owner's own listing. */
  label?: string;
};

export function OwnerAnswer({ answer, answeredAt, unanswered, label = "The owner's answer" }: Props) {
  if (!answer || !answeredAt) return unanswered ? <p className="hint">{unanswered}</p> : null;
  return (
    <>
      <p>
        {label} (<time dateTime={answeredAt.toISOString()}>{formatDateTime(answeredAt)}</time>):
      </p>
      <blockquote className={styles.quote}>{answer}</blockquote>
    </>
  );
}
