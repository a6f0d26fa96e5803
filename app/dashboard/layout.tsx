// /dashboard/* — signed-in pages, for renters and owners alike: the menu puts the account's own
// things first (its rentals, or its listings). Visitors who are not signed in are sent to /sign-in.
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { accountLabel } from "@/app/_components/account-label";
import { loadAccountRoles, rentingFirst } from "@/lib/accounts/load-account-roles";
import { checkArbiterRole } from "@/lib/auth/check-arbiter-role";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { countUnreadNotifications } from "@/lib/notifications/list-notifications";
import { type DashboardLink, DashboardMenu } from "./_components/dashboard-menu";
import styles from "./dashboard.module.css";
import { signOutAction } from "./sign-out-action";

export const metadata: Metadata = {
  title: { default: "Dashboard", template: "%s · Dashboard · Agent Rental Service" },
};

const RENTING: DashboardLink[] = [{ href: "/dashboard/rentals", label: "My rentals" }];
const LISTING: DashboardLink[] = [
  { href: "/dashboard/agents", label: "Listings" },
  { href: "/dashboard/stats", label: "Stats" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/keys", label: "API keys" },
];
// An account that lists nothing has no figures, payouts or keys to look at yet: one way to start.
const NOT_LISTING: DashboardLink[] = [{ href: "/dashboard/agents/new", label: "List an agent" }];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireSignedInAccount();
  // Read when the layout renders: first load, reload, and after an action that revalidates this
  // layout (marking notifications read); moving between dashboard pages keeps what is shown. The
  // arbiter role is one eth_call, only for wallet sign-ins, alongside the queries; the menu item
  // is a convenience (the console checks the role again, and an unanswered read hides it).
  const [unread, roles, arbiter] = await Promise.all([
    countUnreadNotifications(account.id),
    loadAccountRoles(account, new Date()),
    checkArbiterRole(account),
  ]);
  const who = accountLabel(account);
  const links: DashboardLink[] = [
    { href: "/dashboard", label: "Overview" },
    ...(rentingFirst(roles) ? [...RENTING, ...(roles.owner ? LISTING : NOT_LISTING)] : [...LISTING, ...RENTING]),
    { href: "/dashboard/notifications", label: "Notifications", unread },
    ...(arbiter === "arbiter" ? [{ href: "/dashboard/disputes", label: "Disputes" }] : []),
  ];
  return (
    <div className={`container ${styles.shell}`}>
      <nav aria-label="Dashboard" className={styles.nav}>
        <p className={styles.account}>
          Signed in as <span title={who.full}>{who.short}</span>
        </p>
        <DashboardMenu links={links}>
          <li>
            <form action={signOutAction}>
              <button type="submit">Sign out</button>
            </form>
          </li>
        </DashboardMenu>
      </nav>
      <div className={styles.main}>{children}</div>
    </div>
  );
}
