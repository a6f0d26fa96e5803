import { statusFor, type VisibleStatus } from "@/lib/format/rental-labels";
import styles from "../renter.module.css";

const TONE_CLASS: Record<string, string> = {
  success: "badge-success",
  warning: "badge-warning",
  neutral: styles.badgeNeutral,
  danger: styles.badgeDanger,
};

/** The rental's status as a coloured pill; its meaning is in words too (title for pointers, text for readers). */
export function StatusBadge({ status, endsAt, now }: { status: VisibleStatus; endsAt: Date; now: Date }) {
  const s = statusFor(status, endsAt, now);
  return (
    <span className={`badge ${TONE_CLASS[s.tone] ?? ""}`} title={s.explanation}>
      <span className="visually-hidden">Status: </span>
      {s.label}
    </span>
  );
}
