// /dashboard/agents — the signed-in owner's listings, with their state and what to do next.
import type { Metadata } from "next";
import Link from "next/link";
import { StatusBadge } from "@/app/_components/status-badge";
import { listOwnerAgents } from "@/lib/agents/list-owner-agents";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { channelName } from "@/lib/channels/channel-name";
import { categoryLabel } from "@/lib/format/category";
import { plural } from "@/lib/format/plural";
import { listingStatusLabel } from "@/lib/format/status-label";
import { formatUsdcNumber } from "@/lib/format/usdc";
import styles from "../dashboard.module.css";
import listingStyles from "./listings.module.css";
import { saveDisplayNameAction } from "./owner-name-actions";
import { OwnerNameForm } from "./owner-name-form";

export const metadata: Metadata = { title: "Listings" };

export default async function ListingsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const account = await requireSignedInAccount();
  const [agents, { deleted }] = await Promise.all([listOwnerAgents(account.id), searchParams]);
  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>Listings</h1>
        <Link href="/dashboard/agents/new" className="button button-primary">
          New listing
        </Link>
      </div>
      {deleted === "1" && (
        <p role="status" className={styles.success} style={{ marginBottom: "1rem" }}>
          The listing was deleted.
        </p>
      )}
      <section className={styles.panel} aria-label="Your name on the marketplace">
        <OwnerNameForm action={saveDisplayNameAction} current={account.displayName} />
      </section>
      {agents.length === 0 ? (
        <div className="empty">
          <h2>You have no listings yet</h2>
          <p>
            Create a listing, then connect the webhook where your agent runs. It goes live on the marketplace once a test connection passes.
          </p>
          <p>
            <Link href="/dashboard/agents/new" className="button button-primary">
              Create your first listing
            </Link>
          </p>
        </div>
      ) : (
        <ul className={listingStyles.listings} aria-label="Your listings">
          {agents.map((agent) => {
            const prices = [
              agent.pricePerHour !== null && `${formatUsdcNumber(agent.pricePerHour)} per hour`,
              agent.pricePerDay !== null && `${formatUsdcNumber(agent.pricePerDay)} per day`,
              agent.pricePerMonth !== null && `${formatUsdcNumber(agent.pricePerMonth)} per month`,
              agent.pricePerMessage !== null && `${formatUsdcNumber(agent.pricePerMessage)} per message`,
              agent.trialMessages !== null && `${agent.trialMessages} free trial messages`,
            ].filter(Boolean);
            return (
              <li key={agent.id} className={listingStyles.listing}>
                <div className={listingStyles.listingHead}>
                  <h2>
                    <Link href={`/dashboard/agents/${agent.id}`}>{agent.name}</Link>
                  </h2>
                  <StatusBadge status={listingStatusLabel(agent)} />
                </div>
                <dl className={styles.facts}>
                  <div>
                    <dt>Category</dt>
                    <dd>{categoryLabel(agent.category)}</dd>
                  </div>
                  <div>
                    <dt>Prices</dt>
                    <dd>{prices.join(" · ")}</dd>
                  </div>
                  <div>
                    <dt>Channels</dt>
                    <dd>{agent.channels.map(channelName).join(", ")}</dd>
                  </div>
                  <div>
                    <dt>Rentals</dt>
                    <dd>{agent.totalRentals}</dd>
                  </div>
                  <div>
                    <dt>Rating</dt>
                    <dd>
                      {agent.rating.average === null
                        ? "no ratings yet"
                        : `${agent.rating.average} of 5 (${plural(agent.rating.count, "rating")})`}
                    </dd>
                  </div>
                </dl>
                <p style={{ margin: 0 }}>
                  <Link href={`/dashboard/agents/${agent.id}`} aria-label={`Edit ${agent.name}`}>
                    Edit
                  </Link>
                  {agent.status === "available" && (
                    <>
                      {" · "}
                      <Link href={`/agents/${agent.id}`}>View on the marketplace</Link>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
