// A transaction as the dashboard shows it: a link to the chain's block explorer (shortened hash),
// the whole hash where the chain has none (a local anvil), or "—" when none was recorded.
import { shortHex } from "@/lib/chain/short-hex";
import styles from "../dashboard.module.css";

export function TransactionLink({ hash, explorerUrl }: { hash: string | null; explorerUrl: string | null }) {
  if (!hash) return <span className="muted">—</span>;
  if (!explorerUrl) return <code className={styles.address}>{hash}</code>;
  return (
    <a href={`${explorerUrl}/tx/${hash}`} target="_blank" rel="noreferrer">
      <code>{shortHex(hash)}</code>
      <span className="visually-hidden"> (opens the block explorer in a new tab)</span>
    </a>
  );
}
