// A listing's state in words (colour is never the only signal).
export function StatusBadge({ status }: { status: string }) {
  return status === "available" ? (
    <span className="badge badge-success">Available</span>
  ) : (
    <span className="badge badge-warning">Offline</span>
  );
}
