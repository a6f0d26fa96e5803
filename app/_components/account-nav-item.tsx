// The visitor-dependent end of the site header: "Sign in", or the dashboard link and who is
// signed in. Server-only (a session lookup, no client code); SiteHeader streams it in Suspense.
import Link from "next/link";
import { signedInAccount } from "@/lib/auth/signed-in-account";
import { accountLabel } from "./account-label";
import chrome from "./site-chrome.module.css";

export async function AccountNavItem() {
  const account = await signedInAccount();
  if (!account) {
    return (
      <li className={chrome.siteNavAccount}>
        <Link href="/sign-in" prefetch={false}>
          Sign in
        </Link>
      </li>
    );
  }
  const label = accountLabel(account);
  return (
    <li className={chrome.siteNavAccount}>
      <Link href="/dashboard" prefetch={false}>
        Dashboard
      </Link>
      <span className={chrome.siteAccountLabel} title={label.full}>
        <span className="visually-hidden">Signed in as </span>
        {label.short}
      </span>
    </li>
  );
}
