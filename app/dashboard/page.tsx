// /dashboard — the overview of a signed-in account, its own things first: the rentals running now
// for a renter, listings and money for an owner, both for an account that does both, and the two
// ways to start for a new account.
import type { Metadata } from "next";
import Link from "next/link";
import { OwnerOverview } from "@/app/dashboard/_components/owner-overview";
import { RenterOverview } from "@/app/dashboard/_components/renter-overview";
import { rentingFirst } from "@/lib/accounts/load-account-roles";
import { listOwnerAgents } from "@/lib/agents/list-owner-agents";
import { loadOwnerStats } from "@/lib/agents/load-owner-stats";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { isRentalRunning } from "@/lib/rentals/is-rental-running";
import { listRenterRentals } from "@/lib/rentals/list-renter-rentals";
import styles from "./dashboard.module.css";

export const metadata: Metadata = { title: "Overview" };

export default async function DashboardPage() {
  const account = await requireSignedInAccount();
  const now = new Date();
  const [agents, stats, rentals] = await Promise.all([listOwnerAgents(account.id), loadOwnerStats(account.id), listRenterRentals(account)]);
  const activeRentals = rentals.filter((r) => isRentalRunning(r, now)).length;
  const roles = { owner: agents.length > 0, renter: rentals.length > 0, activeRentals };
  const renter = <RenterOverview key="renter" rentals={rentals} now={now} />;
  const owner = roles.owner ? (
    <OwnerOverview key="owner" agents={agents} stats={stats} />
  ) : (
    <section key="owner" aria-labelledby="list-heading" className={styles.panel}>
      <h2 id="list-heading">Run an agent? List it</h2>
      <p>
        Renters pay by the hour, day or month, and their messages reach your agent&apos;s webhook.{" "}
        <Link href="/dashboard/agents/new">Create a listing</Link>, connect the webhook where your agent runs, and it goes live on the
        marketplace when the test connection passes.
      </p>
    </section>
  );
  return (
    <main id="main" tabIndex={-1}>
      <h1 className={styles.title}>Dashboard</h1>
      {rentingFirst(roles) ? [renter, owner] : [owner, renter]}
    </main>
  );
}
