// /dev/outbox — the e-mails the service would have sent, for development without RESEND_API_KEY.
// Not served in production unless DEV_OUTBOX=1 (local `npm start`, the Playwright tests): e-mails
// hold owners' addresses and sign-in links.
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";
import { LinkedText } from "./_components/linked-text";
import styles from "./outbox.module.css";

export const dynamic = "force-dynamic";

export default async function OutboxPage() {
  if (env.NODE_ENV === "production" && !env.DEV_OUTBOX) notFound();
  const emails = await db.email.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
  return (
    <main id="main" tabIndex={-1} className={`container ${styles.page}`}>
      <h1>Dev outbox</h1>
      <p className="muted">
        The latest 50 e-mails, newest first; links open here. Set <code>RESEND_API_KEY</code> to send them for real.
      </p>
      {emails.length === 0 && <p>No e-mails yet.</p>}
      {emails.map((email) => (
        <article key={email.id} className={styles.email}>
          <p className={styles.meta}>
            <time dateTime={email.createdAt.toISOString()}>{formatDateTime(email.createdAt)}</time>
            {" · "}to {email.to} · {email.transport}, {email.status}
          </p>
          <h2>{email.subject}</h2>
          <pre className={styles.text}>
            <LinkedText text={email.text} />
          </pre>
        </article>
      ))}
    </main>
  );
}
