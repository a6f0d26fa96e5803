// /dev/outbox — the e-mails the service would have sent, for development without RESEND_API_KEY.
// Not served in production unless DEV_OUTBOX=1 (local `npm start`, the Playwright tests): e-mails
// hold owners' addresses and sign-in links.
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function OutboxPage() {
  if (env.NODE_ENV === "production" && !env.DEV_OUTBOX) notFound();
  const emails = await db.email.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
  return (
    <main id="main" tabIndex={-1} style={{ maxWidth: 860, margin: "0 auto", padding: "32px 24px", lineHeight: 1.5 }}>
      <h1 style={{ marginBottom: 4 }}>Dev outbox</h1>
      <p style={{ color: "#555", marginTop: 0 }}>
        The latest 50 e-mails, newest first. Set <code>RESEND_API_KEY</code> to send them for real.
      </p>
      {emails.length === 0 && <p>No e-mails yet.</p>}
      {emails.map((email) => (
        <article
          key={email.id}
          style={{
            background: "#fff",
            border: "1px solid #ddd",
            borderRadius: 6,
            padding: "12px 16px",
            margin: "16px 0",
          }}
        >
          <div style={{ color: "#555", fontSize: 14 }}>
            <time dateTime={email.createdAt.toISOString()}>{email.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
            {" · "}to {email.to} · {email.transport}, {email.status}
          </div>
          <h2 style={{ fontSize: 17, margin: "6px 0 8px" }}>{email.subject}</h2>
          <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: 0 }}>{email.text}</pre>
        </article>
      ))}
    </main>
  );
}
