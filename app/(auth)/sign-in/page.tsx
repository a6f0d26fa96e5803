// /sign-in — renters and owners sign in with a wallet (Sign-In with Ethereum); owners may also
// ask for an e-mailed link. Server-rendered: the wallet code loads only when its button is pressed.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AFTER_SIGN_IN, readSignInNext } from "@/lib/auth/sign-in-path";
import { signedInAccount } from "@/lib/auth/signed-in-account";
import { expectedSiweChainId } from "@/lib/auth/verify-siwe-sign-in";
import { env } from "@/lib/env";
import { signInErrorMessage } from "@/lib/schemas/auth";
import { EmailSignInForm } from "./email-sign-in-form";
import styles from "./sign-in.module.css";
import { WalletSignInButton } from "./wallet-sign-in-button";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[]; next?: string | string[] }>;
}) {
  const { error, next: asked } = await searchParams;
  // The page a signed-out visit was sent here from (requireSignedInAccount): both ways in land
  // there. Only a path on this site is kept; anything else is dropped for the dashboard.
  const next = readSignInNext(asked);
  if (await signedInAccount()) redirect(next ?? AFTER_SIGN_IN);
  // Only known codes become sentences (lib/schemas/auth.ts), so a crafted link cannot add words.
  const problem = signInErrorMessage(typeof error === "string" ? error : undefined);

  return (
    <main id="main" tabIndex={-1} className={`container ${styles.page}`}>
      <div className="page-intro">
        <h1>Sign in</h1>
        <p className="lead">Rent agents and manage your listings. There is no password: your wallet or your inbox proves it is you.</p>
        {next && <p>Once you are signed in, you go on to the page you opened.</p>}
      </div>

      {problem && (
        <p role="alert" className={styles.alert}>
          {problem}
        </p>
      )}

      <section aria-labelledby="wallet-heading" className={styles.panel}>
        <h2 id="wallet-heading">With your wallet</h2>
        <p className="hint">For renters and owners. Your wallet asks you to sign a message; this is not a transaction and costs nothing.</p>
        <WalletSignInButton chainId={expectedSiweChainId()} destination={next ?? AFTER_SIGN_IN} />
      </section>

      <section aria-labelledby="email-heading" className={styles.panel}>
        <h2 id="email-heading">With your e-mail (owners)</h2>
        <p className="hint">
          We e-mail you a link that signs you in once, within 15 minutes. New here? The link creates your owner account.
        </p>
        <EmailSignInForm next={next} />
        {/* `npm run dev` sends no mail (no RESEND_API_KEY): the link waits in the outbox. */}
        {env.NODE_ENV === "development" && !env.RESEND_API_KEY && (
          <p className="hint">
            In development no e-mail is sent: the link lands in the <Link href="/dev/outbox">dev outbox</Link>.
          </p>
        )}
      </section>
    </main>
  );
}
