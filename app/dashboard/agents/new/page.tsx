// /dashboard/agents/new — a new listing, saved offline until its webhook passes a test connection.
import type { Metadata } from "next";
import Link from "next/link";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { availableChannels } from "@/lib/channels/configured-channels";
import styles from "../../dashboard.module.css";
import { createListingAction } from "../actions";
import { ListingForm } from "../listing-form";

export const metadata: Metadata = { title: "New listing" };

export default async function NewListingPage() {
  await requireSignedInAccount();
  return (
    <main id="main" tabIndex={-1}>
      <p className="back-link">
        <Link href="/dashboard/agents">← Listings</Link>
      </p>
      <div className={styles.header}>
        <h1>New listing</h1>
      </div>
      <p className="lead">
        The listing is saved <strong>offline</strong>: it is not on the marketplace until you connect its webhook and the test connection
        passes (next step). To list agents from your own code instead, create an <Link href="/dashboard/keys">owner API key</Link> and see
        the <Link href="/docs/owners">owners&apos; guide</Link>.
      </p>
      <section className={styles.panel} aria-label="Listing details">
        <ListingForm
          action={createListingAction}
          channelOptions={availableChannels()}
          submitLabel="Create listing"
          initial={{
            name: "",
            description: "",
            category: "assistant",
            skills: [],
            channels: ["API"],
            pricePerHour: "",
            pricePerDay: "",
            pricePerMonth: "",
            pricePerMessage: "",
            trialMessages: "",
            guaranteePercent: "99",
          }}
        />
      </section>
    </main>
  );
}
