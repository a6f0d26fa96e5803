// /dashboard/rentals/[id] — one of the renter's rentals: its facts, a chat playground that calls
// the public renter API with the rental code, its measured minutes and what downtime returns of the
// price, its usage so far, the rating form, and (while the rental runs) the way to open a dispute on
// chain, or how it was decided.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StatusBadge } from "@/app/_components/status-badge";
import { OwnerAnswer } from "@/app/dashboard/_components/owner-answer";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { loadAvailability } from "@/lib/availability/load-availability";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { shortHex } from "@/lib/chain/short-hex";
import { channelLinks } from "@/lib/channels/channel-links";
import { channelName } from "@/lib/channels/channel-name";
import { findRentalChat, type RentalChat } from "@/lib/channels/find-rental-chat";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { DURATION_LABEL } from "@/lib/format/duration";
import { plural } from "@/lib/format/plural";
import { rentalStatusLabel } from "@/lib/format/status-label";
import { formatUsdc } from "@/lib/format/usdc";
import { isRentalRunning } from "@/lib/rentals/is-rental-running";
import { findRenterRental, type RenterRental } from "@/lib/rentals/list-renter-rentals";
import { loadRentalUsage } from "@/lib/rentals/load-rental-usage";
import { rentalLiveState } from "@/lib/rentals/rental-live-state";
import { ChatPlayground } from "../_components/chat-playground";
import { CopyCode } from "../_components/copy-code";
import { DisconnectChatForm } from "../_components/disconnect-chat-form";
import { DisputePanel } from "../_components/dispute-panel";
import { LazyRentalLiveUpdates } from "../_components/lazy-rental-live-updates";
import { MoveChatForm } from "../_components/move-chat-form";
import { RatingForm } from "../_components/rating-form";
import { RentalEndFacts } from "../_components/rental-end-facts";
import { RentalUptime } from "../_components/rental-uptime";
import { RentalUsage } from "../_components/rental-usage";
import { disconnectChatAction, moveChatAction, rateRentalAction, saveDisputeClaimAction } from "../actions";
import styles from "../renter.module.css";

export const metadata: Metadata = { title: "Rental" };

type Params = { id: string };

function playgroundState(rental: RenterRental, now: Date): { usable: boolean; reason: string | null } {
  if (rental.status === "cancelled")
    return { usable: false, reason: "This rental was cancelled, so the agent no longer answers its code." };
  if (rental.status === "disputed")
    return {
      usable: false,
      reason:
        "This rental is disputed: its payment is frozen until the dispute is decided, and the agent does not answer its code meanwhile.",
    };
  if (rental.status === "completed" || rental.endsAt <= now) {
    return {
      usable: false,
      reason: `This rental ended on ${formatDateTime(rental.endsAt)}, so the agent no longer answers its code. Rent it again from the marketplace to keep talking.`,
    };
  }
  if (rental.startsAt > now)
    return {
      usable: false,
      reason: `This rental starts on ${formatDateTime(rental.startsAt)}; you can chat from then on.`,
    };
  return { usable: true, reason: null };
}

// Who may connect the rental's chat while none is connected, in the page's words.
function notConnected(chat: RentalChat, channel: string): string {
  switch (chat.codeConnects) {
    case "any":
      return `Not connected: send the start command with your code to the ${channel} bot.`;
    case "holder":
      return `Not connected. The ${channel} account it was connected to can start it again with your code; another account needs a move command.`;
    case "nobody":
      return "Not connected: you disconnected it here. A move command connects a chat account again.";
  }
}

function RatingSection({ rental, now }: { rental: RenterRental; now: Date }) {
  if (rental.rating) {
    return (
      <>
        <p className={styles.ratingShown}>
          <span className="star" aria-hidden="true">
            {"★".repeat(rental.rating.score)}
            {"☆".repeat(5 - rental.rating.score)}
          </span>{" "}
          You rated this rental {rental.rating.score} of 5 on{" "}
          <time dateTime={rental.rating.createdAt.toISOString()}>{formatDateTime(rental.rating.createdAt)}</time>.
        </p>
        {rental.rating.comment && <blockquote className={styles.ratingComment}>“{rental.rating.comment}”</blockquote>}
        <p className="hint">Ratings are final: each rental can be rated once. It counts in the agent&apos;s average on the marketplace.</p>
      </>
    );
  }
  if (rental.trial) return <p className="muted">A free trial cannot be rated: ratings come from paid rentals.</p>;
  if (rental.status === "cancelled") return <p className="muted">This rental was cancelled, so it cannot be rated.</p>;
  if (rental.startsAt > now) return <p className="muted">You can rate the agent once the rental has started.</p>;
  return <RatingForm action={rateRentalAction.bind(null, rental.id)} />;
}

function DisputeSection({ rental, now }: { rental: RenterRental; now: Date }) {
  if (rental.disputeRefundMicro !== null && rental.dispute?.resolvedAt) {
    const outcome = describeDisputeOutcome({
      refundMicro: rental.disputeRefundMicro,
      priceMicro: rental.priceMicro,
      feeMicro: rental.feeMicro,
      resolvedBy: rental.dispute.resolvedBy,
      ended: rental.endsAt <= rental.dispute.resolvedAt,
    });
    return (
      <>
        <p>
          <strong>{outcome.title}.</strong> {outcome.renter}
        </p>
        <p className="hint">
          Decided {formatDateTime(rental.dispute.resolvedAt)}. Your reason: {disputeReasonLabel(rental.dispute.reason).toLowerCase()}. A
          rental can be disputed once.
        </p>
        <OwnerAnswer answer={rental.dispute.ownerAnswer} answeredAt={rental.dispute.ownerAnsweredAt} />
      </>
    );
  }
  if (rental.status === "disputed") {
    return (
      <>
        <p>
          You opened a dispute
          {rental.dispute?.reason ? ` (${disputeReasonLabel(rental.dispute.reason).toLowerCase()})` : ""}. The payment stays frozen in the
          escrow: the owner may accept it (you get the price and the fee back), or an arbiter decides within a day or two, from the
          service&apos;s measurements of the agent.
        </p>
        <OwnerAnswer answer={rental.dispute?.ownerAnswer ?? null} answeredAt={rental.dispute?.ownerAnsweredAt ?? null} />
        <p className="hint">You are told here, by notification and by e-mail when your account has one, once it is decided.</p>
      </>
    );
  }
  if (rental.trial) return <p className="muted">A free trial cannot be disputed: nothing was paid for it.</p>;
  if (rental.status !== "active") return <p className="muted">Disputes can only be opened while a rental is running.</p>;
  if (rental.endsAt <= now) {
    return <p className="muted">The dispute window closed when the rental ended ({formatDateTime(rental.endsAt)}).</p>;
  }
  const chain = escrowChain();
  if (!chain) {
    return (
      <p className="muted">
        Disputes are unavailable: payments are not configured on this server (the <code>CHAIN_ID</code>, <code>CHAIN_RPC_URL</code> and{" "}
        <code>ESCROW_ADDRESS</code> settings are not set).
      </p>
    );
  }
  if (!rental.renterAddress) {
    return <p className="muted">This rental was not paid through the escrow (a demo or test rental), so there is no payment to dispute.</p>;
  }
  return (
    <>
      <p>
        If the agent does not work as described, you can freeze the payment before the rental ends ({formatDateTime(rental.endsAt)}). The
        owner may accept (a full refund of the price and the fee); otherwise an arbiter decides from the evidence: a full refund, part of
        the price back in proportion to the agent&apos;s downtime, or none.
      </p>
      <p className="hint">
        You say what went wrong, then send one transaction from the wallet that paid ({shortHex(rental.renterAddress)}) on {chain.chainName}
        . Once it is confirmed, the rental shows as disputed here within a minute and the owner is told.
      </p>
      <DisputePanel
        action={saveDisputeClaimAction.bind(null, rental.id)}
        saved={rental.dispute}
        escrowId={rental.escrowId}
        endsAt={rental.endsAt.toISOString()}
        renterAddress={rental.renterAddress}
        chain={chain}
      />
    </>
  );
}

export default async function RenterRentalPage({ params }: { params: Promise<Params> }) {
  const { id } = await params;
  const account = await requireSignedInAccount();
  const rental = await findRenterRental(account, id);
  if (!rental) notFound();
  const now = new Date();
  const running = isRentalRunning(rental, now);
  const playground = playgroundState(rental, now);
  const status = rentalStatusLabel(rental.status, rental.endsAt, now);
  const [chat, usage, availability] = await Promise.all([
    rental.channel === "API" ? null : findRentalChat(rental.id),
    rental.startsAt <= now ? loadRentalUsage(rental, now) : null,
    loadAvailability([rental.id], now),
  ]);
  const terms = availability.get(rental.id);
  // What the page refreshes itself for when it changes (the playground, a bot, the chain).
  const live = rentalLiveState({
    status: rental.status,
    disputeDecidedAt: rental.dispute?.resolvedAt ?? null,
    ownerAnsweredAt: rental.dispute?.ownerAnsweredAt ?? null,
    messages: usage?.messages ?? 0,
    chatConnectedAt: chat?.bound?.createdAt ?? null,
  });

  return (
    <main id="main" tabIndex={-1} className={styles.page}>
      <p className="back-link" style={{ margin: "0 0 0.5rem" }}>
        <Link href="/dashboard/rentals">
          <span aria-hidden="true">←</span> My rentals
        </Link>
      </p>
      <div className={styles.header}>
        <h1>{rental.agentName}</h1>
        <StatusBadge status={status} />
      </div>
      <p className="muted">{status.explanation}</p>
      {running && rental.status === "active" && rental.renterAddress && (
        <p>
          <Link className="button" href={`/dashboard/rentals/${rental.id}/extend`}>
            Extend
          </Link>{" "}
          <span className="hint">Keep the agent longer, same code and chat: one wallet transaction.</span>
        </p>
      )}
      <LazyRentalLiveUpdates rentalId={rental.id} state={live} endsAt={rental.endsAt.toISOString()} />

      <div className={`detail ${styles.besideNav}`}>
        <section id="playground" aria-labelledby="playground-heading" className={`surface ${styles.panel}`}>
          <h2 id="playground-heading">Playground</h2>
          <ChatPlayground
            code={rental.code}
            agentName={rental.agentName}
            usable={playground.usable}
            unusableReason={playground.reason}
            storageKey={`playground:${rental.escrowId}`}
          />
        </section>

        <div className={styles.side}>
          <section aria-labelledby="facts-heading" className={`surface ${styles.panel}`}>
            <h2 id="facts-heading">Rental</h2>
            <dl className={styles.facts}>
              <dt>Code</dt>
              <dd>
                <CopyCode code={rental.code} />
              </dd>
              <dt>Starts</dt>
              <dd>
                <time dateTime={rental.startsAt.toISOString()}>{formatDateTime(rental.startsAt)}</time>
              </dd>
              <RentalEndFacts endsAt={rental.endsAt} now={now} running={running} />
              <dt>Duration</dt>
              <dd>{DURATION_LABEL[rental.durationType].one}</dd>
              <dt>Channel</dt>
              <dd>{channelName(rental.channel)}</dd>
              {rental.channel !== "API" && (
                <>
                  <dt>Chat</dt>
                  <dd>
                    {chat?.bound ? (
                      <DisconnectChatForm
                        action={disconnectChatAction.bind(null, rental.id)}
                        chat={`${chat.bound.chatLabel} on ${chat.bound.platform}`}
                      />
                    ) : (
                      chat && <span className="muted">{notConnected(chat, channelName(rental.channel))}</span>
                    )}
                    {running && <MoveChatForm action={moveChatAction.bind(null, rental.id)} links={channelLinks()} />}
                  </dd>
                </>
              )}
              {rental.trial ? (
                <>
                  <dt>Free trial</dt>
                  <dd data-testid="trial-messages-left">
                    {plural(rental.trial.messagesLeft, "message")} left{" "}
                    <span className="hint">
                      (the owner pays for them; then <Link href={`/agents/${rental.agentId}/rent`}>rent the agent</Link>)
                    </span>
                  </dd>
                </>
              ) : (
                <>
                  <dt>Paid</dt>
                  <dd>
                    {formatUsdc(rental.priceMicro + rental.feeMicro)}{" "}
                    <span className="hint">
                      ({formatUsdc(rental.priceMicro)} + {formatUsdc(rental.feeMicro)} fee)
                    </span>
                  </dd>
                </>
              )}
              {rental.disputeRefundMicro !== null && rental.disputeRefundMicro > 0n && (
                <>
                  <dt>Refunded</dt>
                  <dd>
                    {formatUsdc(
                      rental.disputeRefundMicro >= rental.priceMicro ? rental.priceMicro + rental.feeMicro : rental.disputeRefundMicro,
                    )}
                  </dd>
                </>
              )}
              {rental.renterAddress && (
                <>
                  <dt>Wallet</dt>
                  <dd>
                    <code className={styles.breakAll}>{rental.renterAddress}</code>
                  </dd>
                </>
              )}
              {rental.createTxHash && (
                <>
                  <dt>Payment</dt>
                  <dd>
                    <code className={styles.breakAll}>{rental.createTxHash}</code>
                  </dd>
                </>
              )}
            </dl>
            <p className="hint" style={{ margin: 0 }}>
              Full id <code className={styles.breakAll}>{rental.id}</code>.{" "}
              <Link href={`/agents/${rental.agentId}`}>The agent&apos;s page</Link>
            </p>
          </section>

          {terms && !rental.trial && (
            <section id="uptime" aria-labelledby="uptime-heading" className={`surface ${styles.panel}`}>
              <h2 id="uptime-heading">Uptime</h2>
              <RentalUptime terms={terms} rental={rental} />
            </section>
          )}

          {usage && (
            <section id="usage" aria-labelledby="usage-heading" className={`surface ${styles.panel}`}>
              <h2 id="usage-heading">Your usage</h2>
              <RentalUsage usage={usage} />
            </section>
          )}

          <section id="rate" aria-labelledby="rate-heading" className={`surface ${styles.panel}`}>
            <h2 id="rate-heading">Rate the agent</h2>
            <RatingSection rental={rental} now={now} />
          </section>

          <section id="dispute" aria-labelledby="dispute-heading" className={`surface ${styles.panel}`}>
            <h2 id="dispute-heading">Dispute</h2>
            <DisputeSection rental={rental} now={now} />
          </section>
        </div>
      </div>
    </main>
  );
}
