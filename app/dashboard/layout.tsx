// /dashboard/* — signed-in pages (owner side here; the renter's "My rentals" lives beside it).
// Visitors who are not signed in are sent to /sign-in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { accountLabel } from "@/app/_components/account-label";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { countUnreadNotifications } from "@/lib/notifications/list-notifications";
import { type DashboardLink, DashboardNavLinks } from "./_components/dashboard-nav-links";
import styles from "./dashboard.module.css";
import { signOutAction } from "./sign-out-action";

export const metadata: Metadata = {
  title: { default: "Dashboard", template: "%s · Dashboard · Agent Rental Service" },
};

const LINKS: DashboardLink[] = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/agents", label: "Listings" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/stats", label: "Stats" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/rentals", label: "My rentals" },
];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireSignedInAccount();
  // Read when the layout renders: first load, reload, and after a mark-read action (which
  // revalidates this layout); moving between dashboard pages keeps the count already shown.
  const unread = await countUnreadNotifications(account.id);
  const who = accountLabel(account);
  return (
    <div className={`container ${styles.shell}`}>
      <nav aria-label="Dashboard" className={styles.nav}>
        <p className={styles.account}>
          Signed in as <span title={who.full}>{who.short}</span>
        </p>
        <ul>
          <DashboardNavLinks links={[...LINKS, { href: "/dashboard/notifications", label: "Notifications", unread }]} />
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
