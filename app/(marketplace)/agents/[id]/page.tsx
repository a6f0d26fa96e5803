// /agents/<id> — one listing with everything a renter needs to decide, and a Rent link per priced
// duration to the checkout (/agents/<id>/rent?duration=hour|day|month).
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { AgentAvatar } from "@/app/_components/agent-avatar";
import { findMarketplaceAgent } from "@/lib/agents/find-marketplace-agent";
import { listAgentReviews } from "@/lib/agents/list-agent-reviews";
import { DURATIONS, pricedDurations } from "@/lib/agents/to-marketplace-agent";
import { signedInAccount } from "@/lib/auth/signed-in-account";
import { channelName } from "@/lib/channels/channel-name";
import { categoryLabel } from "@/lib/format/category";
import { formatDate, formatDateTime } from "@/lib/format/date-time";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatGuarantee } from "@/lib/format/guarantee";
import { formatPercent } from "@/lib/format/number";
import { formatUsdc } from "@/lib/format/usdc";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { findTrial } from "@/lib/trials/start-trial";
import { AgentReviews } from "../../_components/agent-reviews";
import { AgentStats } from "../../_components/agent-stats";
import { NOT_RENTABLE } from "../../_components/labels";
import { ownerLine } from "../../_components/owner-line";
import { ReliabilityFacts } from "../../_components/reliability-figures";
import { UsdcPrice } from "../../_components/usdc-price";
import { readTrialNotice, TrialBox } from "./_components/trial-box";
import page from "./agent-page.module.css";

type Props = { params: Promise<{ id: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

// generateMetadata and the page read the same agent: one database visit per request.
const loadAgent = cache(findMarketplaceAgent);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const agent = await loadAgent((await params).id);
  if (!agent) return { title: "Agent not found" };
  return { title: agent.name, description: agent.description.slice(0, 160) };
}

export default async function AgentPage({ params, searchParams }: Props) {
  await connection(); // status, prices and ratings change: always render per request
  const agent = await loadAgent((await params).id);
  if (!agent) notFound();
  const [reviews, account, query] = await Promise.all([listAgentReviews(agent.id), signedInAccount(), searchParams]);
  // The signed-in renter's free trial of this agent, if they ever started one (docs/trials.md).
  const trial = account ? await findTrial(account.id, agent.id) : null;

  const priced = pricedDurations(agent);
  const unpriced = DURATIONS.filter((d) => agent.prices[d] === null);
  const reason = agent.notRentableReason ? NOT_RENTABLE[agent.notRentableReason] : null;

  return (
    <main id="main" tabIndex={-1} className="container">
      <p className="back-link">
        <Link href="/">
          <span aria-hidden="true">←</span> All agents
        </Link>
      </p>

      <div className="detail">
        <div className={page.detailMain}>
          <header className={page.detailHeader}>
            <AgentAvatar agent={agent} size={72} />
            <p className="tile-category">{categoryLabel(agent.category)}</p>
            <h1>{agent.name}</h1>
            <p className="muted">{ownerLine(agent.ownerName)}</p>
            <p className={reason ? "badge badge-warning" : "badge badge-success"}>{reason ? reason.badge : "Available now"}</p>
          </header>

          <p className={page.detailDescription}>{agent.description}</p>

          <dl className={page.facts}>
            <div>
              <dt>Skills</dt>
              <dd>
                <ul className="tags" aria-label="Skills">
                  {agent.skills.map((skill) => (
                    <li key={skill} className="tag">
                      <Link href={`/?skill=${encodeURIComponent(skill)}`} className={page.tagLink}>
                        <span className="visually-hidden">Find agents with the skill </span>
                        {skill}
                      </Link>
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
            <div>
              <dt>Channels</dt>
              <dd>
                {agent.channels.map(channelName).join(", ")}
                <span className="hint"> — you choose one at checkout.</span>
              </dd>
            </div>
            <div>
              <dt>Rating and rentals</dt>
              <dd>
                <AgentStats rating={agent.rating} totalRentals={agent.totalRentals} />
              </dd>
            </div>
            <div>
              <dt>Availability</dt>
              <dd>
                {reason ? `${reason.badge}: cannot be rented right now.` : "Available: its webhook is connected and passing health checks."}
                {agent.lastHealthCheck && (
                  <span className="hint">
                    {" "}
                    Last health check {agent.lastHealthCheck.ok ? "passed" : "failed"}{" "}
                    <time dateTime={agent.lastHealthCheck.at.toISOString()}>{formatDateTime(agent.lastHealthCheck.at)}</time>.
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt>Uptime guarantee</dt>
              <dd>
                {formatPercent(agent.guaranteePermille / 10)}
                <span className="hint">
                  {" "}
                  — every minute of your rental is measured; down minutes beyond what this allows are refunded to you automatically when it
                  ends.
                </span>
              </dd>
            </div>
            <div>
              <dt>Listed since</dt>
              <dd>
                <time dateTime={agent.createdAt.toISOString()}>{formatDate(agent.createdAt)}</time>
              </dd>
            </div>
          </dl>

          <section aria-labelledby="reliability-heading" className={page.how}>
            <h2 id="reliability-heading">Measured by the service</h2>
            <ReliabilityFacts reliability={agent.reliability} />
          </section>

          <AgentReviews reviews={reviews} />

          <section aria-labelledby="how-heading" className={page.how}>
            <h2 id="how-heading">How renting works</h2>
            <ol>
              <li>Choose a duration and pay the price plus the 1 USDC service fee from your wallet, in USDC.</li>
              <li>The payment is held in escrow; you receive a rental code at once.</li>
              <li>
                Talk to the agent with that code over the API (<code>POST /api/v1/chat</code>) or on the channel you chose, until the rental
                ends.
              </li>
              <li>
                When the rental ends, the owner is paid the price, less a refund to you for down minutes beyond the uptime guarantee; the
                fee goes to the service.
              </li>
            </ol>
            {/* The card exists while the listing is on the marketplace (online, webhook connected). */}
            {agent.notRentableReason !== "offline" && agent.notRentableReason !== "no-webhook" && (
              <p className="hint" data-testid="a2a-card">
                Other AI agents can call this one over A2A with a rental code: its{" "}
                <a href={`/a2a/${agent.id}/.well-known/agent-card.json`} type="application/json">
                  agent card
                </a>{" "}
                (<Link href="/docs/a2a">how</Link>).
              </p>
            )}
          </section>
        </div>

        <aside id="rent" className={`surface ${page.rentCard}`} aria-labelledby="rent-heading">
          <h2 id="rent-heading">Rent this agent</h2>
          {reason && (
            <div className="notice" role="note">
              <p>
                <strong>{reason.badge}: this agent cannot be rented right now.</strong>
              </p>
              <p>{reason.explanation}</p>
              <p>
                <Link href="/">Browse agents available now</Link>
              </p>
            </div>
          )}
          <ul className={page.rentOptions}>
            {priced.map(({ duration, price }) => (
              <li key={duration} className={page.rentOption}>
                <div className={page.rentOptionText}>
                  <p className={page.rentOptionDuration}>{DURATION_LABEL[duration].one}</p>
                  <p className={page.rentOptionPrice}>
                    <UsdcPrice micro={price} />
                  </p>
                  <p className="hint">
                    + {formatUsdc(RENTAL_FEE_MICRO)} fee = {formatUsdc(price + RENTAL_FEE_MICRO)} in total
                  </p>
                </div>
                {!reason && (
                  <Link href={`/agents/${agent.id}/rent?duration=${duration}`} className="button button-primary" prefetch={false}>
                    Rent for {DURATION_LABEL[duration].one}
                  </Link>
                )}
              </li>
            ))}
          </ul>
          {unpriced.length > 0 && <p className="hint">Not offered {unpriced.map((d) => DURATION_LABEL[d].per).join(" or ")}.</p>}
          {agent.pricePerMessage !== null && (
            <p className={page.perMessage} data-testid="price-per-message">
              <strong>{formatUsdc(agent.pricePerMessage)} per message</strong>
              <span className="hint">
                {" "}
                — also sold one answer at a time, without a rental, to other AI agents and scripts that pay for each answer (x402).
              </span>
            </p>
          )}
          <TrialBox
            agent={agent}
            account={account}
            trial={trial}
            notice={readTrialNotice(query?.trial)}
            rentable={agent.notRentableReason !== "offline" && agent.notRentableReason !== "no-webhook"}
          />
          <p className="hint" data-testid="uptime-guarantee">
            {formatGuarantee(agent.guaranteePermille)}: down minutes beyond it are refunded automatically.
          </p>
          <p className={page.feeNote}>
            <strong>+ 1 USDC service fee per rental.</strong> It is paid at checkout together with the price, whatever the duration. The
            owner receives the price when the rental ends, less any refund for down minutes. Your wallet also pays the network&apos;s usual
            transaction fee (gas).
          </p>
        </aside>
      </div>
      {!reason && priced.length > 0 && (
        // On a phone the rent box is below everything else: this bar keeps the way there in view.
        <div className={page.rentBar}>
          <p>
            From <UsdcPrice micro={priced.map((p) => p.price).sort((a, b) => Number(a - b))[0]} />
          </p>
          <a href="#rent" className="button button-primary">
            Rent<span className="visually-hidden"> {agent.name}: choose a duration</span>
          </a>
        </div>
      )}
    </main>
  );
}
