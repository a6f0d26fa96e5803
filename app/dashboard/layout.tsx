// /dashboard/* — signed-in pages (owner side here; the renter's "My rentals" lives beside it).
// Visitors who are not signed in are sent to /sign-in.
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import styles from "./dashboard.module.css";
import { signOutAction } from "./sign-out-action";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · Dashboard · Agent Rental Service" } };

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/agents", label: "Listings" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/stats", label: "Stats" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/rentals", label: "My rentals" },
];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireSignedInAccount();
  const who = account.email ?? (account.walletAddress ? `${account.walletAddress.slice(0, 6)}…${account.walletAddress.slice(-4)}` : "your account");
  return (
    <div className={`container ${styles.shell}`}>
      <nav aria-label="Dashboard" className={styles.nav}>
        <p className={styles.account}>
          Signed in as <span title={account.email ?? account.walletAddress ?? undefined}>{who}</span>
        </p>
        <ul>
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href}>{link.label}</Link>
            </li>
          ))}
          <li>
            <form action={signOutAction}>
              <button type="submit">Sign out</button>
            </form>
          </li>
        </ul>
      </nav>
      <div className={styles.main}>{children}</div>
    </div>
  );
}
