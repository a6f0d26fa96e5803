// /sign-in/email?token=…[&next=…] — where an e-mailed sign-in link lands. Opening it spends
// nothing (mail scanners open links too): it says which address the link signs in, and its button
// posts the token (and the page to land on) to /api/auth/email/callback, which spends it and
// starts the session.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { inspectMagicLink } from "@/lib/auth/inspect-magic-link";
import { readSignInNext, signInPath } from "@/lib/auth/sign-in-path";
import styles from "../sign-in.module.css";

// The token is in this page's URL: no Referer may carry it to another site, no index may keep it.
export const metadata: Metadata = {
  title: "Confirm sign-in",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

export default async function ConfirmEmailSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[]; next?: string | string[] }>;
}) {
  const { token, next: asked } = await searchParams;
  const value = typeof token === "string" ? token : null;
  // Checked again here (and by the callback): the link's query can be edited by anyone.
  const next = readSignInNext(asked);
  const link = await inspectMagicLink(value);
  if (!link.ok) redirect(signInPath({ error: link.reason, next }));

  return (
    <main id="main" tabIndex={-1} className={`container ${styles.page}`}>
      <div className="page-intro">
        <h1>Sign in</h1>
        <p className="lead">
          This link signs in <strong>{link.email}</strong>. It works once.
        </p>
      </div>
      <section aria-label="Confirm" className={styles.panel}>
        <form method="post" action="/api/auth/email/callback">
          <input type="hidden" name="token" value={value!} />
          {next && <input type="hidden" name="next" value={next} />}
          <button type="submit" className="button button-primary">
            Sign in as {link.email}
          </button>
        </form>
        <p className="hint">Did not ask to sign in? Close this page: nothing happens without the button.</p>
      </section>
    </main>
  );
}
