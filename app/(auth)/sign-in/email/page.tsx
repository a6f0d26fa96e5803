// /sign-in/email?token=… — where an e-mailed sign-in link lands. Opening it spends nothing (mail
// scanners open links too): it says which address the link signs in, and its button posts the
// token to /api/auth/email/callback, which spends it and starts the session.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { inspectMagicLink } from "@/lib/auth/inspect-magic-link";
import styles from "../sign-in.module.css";

// The token is in this page's URL: no Referer may carry it to another site, no index may keep it.
export const metadata: Metadata = {
  title: "Confirm sign-in",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};

export default async function ConfirmEmailSignInPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const value = typeof token === "string" ? token : null;
  const link = await inspectMagicLink(value);
  if (!link.ok) redirect(`/sign-in?error=${link.reason}`);

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
          <button type="submit" className="button button-primary">
            Sign in as {link.email}
          </button>
        </form>
        <p className="hint">Did not ask to sign in? Close this page: nothing happens without the button.</p>
      </section>
    </main>
  );
}
