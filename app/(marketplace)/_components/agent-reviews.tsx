import type { AgentReview } from "@/lib/agents/list-agent-reviews";

import { formatDate } from "@/lib/format/date-time";
import styles from "./agent-reviews.module.css";

// The latest comments renters left, each with its score (in words for screen readers).
export function AgentReviews({ reviews }: { reviews: AgentReview[] }) {
  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">What renters say</h2>
      {reviews.length === 0 ? (
        <p className="muted">No comments yet. Renters can rate an agent and leave a comment once their rental has started.</p>
      ) : (
        <ul className={styles.reviewList}>
          {reviews.map((review) => (
            <li key={review.id} className={styles.review}>
              <p className={styles.reviewMeta}>
                <span aria-hidden="true" className={styles.reviewStars}>
                  {"★".repeat(review.score)}
                  {"☆".repeat(5 - review.score)}
                </span>
                <span className="visually-hidden">{review.score} out of 5</span>{" "}
                <time dateTime={review.createdAt.toISOString()} className="muted">
                  {formatDate(review.createdAt)}
                </time>
              </p>
              <blockquote className={styles.reviewComment}>{review.comment}</blockquote>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
