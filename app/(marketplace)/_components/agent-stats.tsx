import { plural } from "@/lib/format/plural";
import styles from "./agent-stats.module.css";

type AgentStatsProps = { rating: { average: number | null; count: number }; totalRentals: number; oneLine?: boolean };

// Rating and rental total in a line; the star is decoration, the words say it.
export function AgentStats({ rating, totalRentals, oneLine = false }: AgentStatsProps) {
  return (
    <p className={oneLine ? `${styles.stats} ${styles.oneLine}` : styles.stats}>
      {rating.average === null ? (
        <span>No ratings yet</span>
      ) : (
        <span>
          <span aria-hidden="true" className="star">
            ★
          </span>{" "}
          <span className="visually-hidden">Rated </span>
          {rating.average.toFixed(1)}
          <span className="visually-hidden"> out of 5</span> <span className="muted">({plural(rating.count, "rating")})</span>
        </span>
      )}
      <span aria-hidden="true" className={styles.separator}>
        ·
      </span>
      <span>{totalRentals === 0 ? "No rentals yet" : plural(totalRentals, "rental")}</span>
    </p>
  );
}
