import type { StatusLabel } from "@/lib/format/status-label";

/** A status as a coloured pill; its meaning is in words too (the label, "Status:" for readers, the explanation on hover). */
export function StatusBadge({ status }: { status: StatusLabel }) {
  return (
    <span className={`badge badge-${status.tone}`} title={status.explanation}>
      <span className="visually-hidden">Status: </span>
      {status.label}
    </span>
  );
}
