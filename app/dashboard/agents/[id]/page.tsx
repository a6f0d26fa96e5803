// /dashboard/agents/[id] — one listing: its disputes (when it has any), its latest rentals with their
// measured uptime and what downtime cost, connect and test its webhook, its picture, edit its
// details, delete it.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AgentAvatar } from "@/app/_components/agent-avatar";
import { StatusBadge } from "@/app/_components/status-badge";
import { countAgentRentals } from "@/lib/agents/count-agent-rentals";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { listAgentRentals } from "@/lib/agents/list-agent-rentals";
import { openWebhookHost } from "@/lib/agents/webhook-credentials";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { databaseAvatarStore } from "@/lib/avatars/avatar-store";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { availableChannels } from "@/lib/channels/configured-channels";
import { listAgentDisputes } from "@/lib/disputes/list-disputes";
import { loadDisputeEvidence } from "@/lib/disputes/load-dispute-evidence";
import { listingStatusLabel } from "@/lib/format/status-label";
import { usdcInputValue } from "@/lib/format/usdc";
import { ApiError } from "@/lib/http/api-error";
import styles from "../../dashboard.module.css";
import { connectWebhookAction, deleteListingAction, endTrialOfferAction, rotateSigningSecretAction, updateListingAction } from "../actions";
import { ListingForm } from "../listing-form";
import { removePictureAction, uploadPictureAction } from "../picture-actions";
import { PictureForm } from "../picture-form";
import { DeleteForm } from "./delete-form";
import { ListingDisputes } from "./listing-disputes";
import { ListingRentals } from "./listing-rentals";
import { RotateSigningSecretForm } from "./signing-secret";
import { WebhookForm } from "./webhook-form";

export const metadata: Metadata = { title: "Edit listing" };

async function loadAgent(ownerId: string, id: string) {
  try {
    return await findOwnerAgent(ownerId, id);
  } catch (error) {
    // Unknown id and another account's agent alike.
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
}

export default async function EditListingPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const account = await requireSignedInAccount();
  const [{ id }, { created }] = await Promise.all([params, searchParams]);
  const agent = await loadAgent(account.id, id);
  const now = new Date();
  const [rentals, avatar, disputes, latest] = await Promise.all([
    countAgentRentals(agent.id),
    databaseAvatarStore.get(agent.id),
    listAgentDisputes(agent.id),
    listAgentRentals(agent.id, now),
  ]);
  const withEvidence = await Promise.all(
    disputes.map(async (dispute) => ({
      dispute,
      evidence: dispute.resolvedAt === null ? await loadDisputeEvidence({ ...dispute.rental }, now) : null,
    })),
  );
  // Opened here, for the listing's owner only (findOwnerAgent): its host alone reaches the page.
  const connection = agent.webhookUrlCipher
    ? { host: openWebhookHost(agent.id, agent.webhookUrlCipher), answering: agent.status === "available" }
    : null;

  return (
    <main id="main" tabIndex={-1}>
      <p className="back-link">
        <Link href="/dashboard/agents">← Listings</Link>
      </p>
      <div className={styles.header}>
        <h1 style={{ overflowWrap: "anywhere" }}>{agent.name}</h1>
        <StatusBadge status={listingStatusLabel({ status: agent.status, webhookConnected: connection !== null })} />
      </div>
      {/* Only while it holds: once the webhook passes, the listing is no longer offline. */}
      {created === "1" && agent.status !== "available" && (
        <p role="status" className={styles.success} style={{ marginBottom: "1rem" }}>
          Listing created. It is offline until you connect its webhook below and the test connection passes.
        </p>
      )}
      <p className="hint">
        {!connection ? (
          "Not on the marketplace yet: connect its webhook below. It goes live when the test connection passes."
        ) : agent.status === "available" ? (
          <>
            Live on the marketplace: <Link href={`/agents/${agent.id}`}>view its page</Link>. Its webhook is health-checked every 15
            minutes.
          </>
        ) : (
          "Offline: the latest test or health check of its webhook failed. Fix the webhook and test it again below; health checks every 15 minutes also bring it back."
        )}
      </p>

      {withEvidence.length > 0 && (
        <section id="disputes" className={styles.panel} aria-labelledby="disputes-heading">
          <h2 id="disputes-heading">Disputes</h2>
          <ListingDisputes disputes={withEvidence} chain={escrowChain()} now={now} />
        </section>
      )}

      {latest.total > 0 && (
        <section id="rentals" className={styles.panel} aria-labelledby="rentals-heading">
          <h2 id="rentals-heading">Rentals</h2>
          <ListingRentals rentals={latest.rentals} total={latest.total} now={now} />
        </section>
      )}

      <section className={styles.panel} aria-labelledby="webhook-heading">
        <h2 id="webhook-heading">Webhook</h2>
        <WebhookForm action={connectWebhookAction.bind(null, agent.id)} connection={connection} />
        {connection && <RotateSigningSecretForm action={rotateSigningSecretAction.bind(null, agent.id)} />}
        <p>
          <Link href={`/dashboard/agents/${agent.id}/deliveries`}>Delivery log and test message</Link>: every call to this webhook, with the
          reason of each failure.
        </p>
      </section>

      <section className={styles.panel} aria-labelledby="picture-heading">
        <h2 id="picture-heading">Picture</h2>
        <PictureForm
          upload={uploadPictureAction.bind(null, agent.id)}
          remove={removePictureAction.bind(null, agent.id)}
          uploaded={avatar !== null}
          preview={<AgentAvatar agent={{ id: agent.id, name: agent.name, avatarVersion: avatar?.version ?? null }} size={64} />}
        />
      </section>

      <section className={styles.panel} aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <ListingForm
          action={updateListingAction.bind(null, agent.id)}
          channelOptions={[...new Set([...availableChannels(), ...agent.channels])]}
          submitLabel="Save changes"
          initial={{
            name: agent.name,
            description: agent.description,
            category: agent.category,
            skills: agent.skills,
            channels: agent.channels,
            pricePerHour: usdcInputValue(agent.pricePerHour),
            pricePerDay: usdcInputValue(agent.pricePerDay),
            pricePerMonth: usdcInputValue(agent.pricePerMonth),
            pricePerMessage: usdcInputValue(agent.pricePerMessage),
            trialMessages: agent.trialMessages === null ? "" : String(agent.trialMessages),
            guaranteePercent: String(agent.guaranteePermille / 10),
          }}
        />
      </section>

      {agent.trialMessages !== null && (
        <section className={styles.panel} aria-labelledby="trial-heading" data-testid="end-trial-offer">
          <h2 id="trial-heading">Free trial</h2>
          <p className="hint">
            Each signed-in renter may send {agent.trialMessages} {agent.trialMessages === 1 ? "message" : "messages"} free, once. Ending the
            offer stops every running trial at once: their next message is refused with a link to rent.
          </p>
          <form action={endTrialOfferAction.bind(null, agent.id)}>
            <button type="submit" className="button">
              End the trial offer
            </button>
          </form>
        </section>
      )}

      <section className={styles.panel} aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this listing</h2>
        {rentals > 0 ? (
          <p className="hint">
            This listing has {rentals === 1 ? "1 rental" : `${rentals} rentals`} on record, so it stays: rentals and payouts must remain
            traceable to the agent they were for. Only a listing that was never rented can be deleted.
          </p>
        ) : (
          <>
            <p className="hint">It was never rented, so it can be deleted. This cannot be undone.</p>
            <DeleteForm action={deleteListingAction.bind(null, agent.id)} name={agent.name} />
          </>
        )}
      </section>
    </main>
  );
}
