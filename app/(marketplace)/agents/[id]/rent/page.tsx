// /agents/<id>/rent?duration=hour|day|month — the wallet checkout for one listing. The wallet
// code (wagmi, viem, react-query) lives in ./_components/wallet-payment.tsx, fetched after this
// page has loaded and by no other page. Flow: docs/checkout.md.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { findMarketplaceAgent } from "@/lib/agents/find-marketplace-agent";
import { DURATIONS, pricedDurations } from "@/lib/agents/to-marketplace-agent";
import { signedInAccount } from "@/lib/auth/signed-in-account";
import { publicChainSettings } from "@/lib/chain/public-chain-settings";
import { channelLinks } from "@/lib/channels/channel-links";
import { channelName } from "@/lib/channels/channel-name";
import { availableChannels } from "@/lib/channels/configured-channels";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import { categoryLabel } from "@/lib/format/category";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatGuarantee } from "@/lib/format/guarantee";
import { formatUsdc } from "@/lib/format/usdc";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { NOT_RENTABLE } from "../../../_components/labels";
import page from "../agent-page.module.css";
import { Checkout } from "./_components/checkout";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const loadAgent = cache(findMarketplaceAgent);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const agent = await loadAgent((await params).id);
  if (!agent) return { title: "Agent not found" };
  return { title: `Rent ${agent.name}`, robots: { index: false } };
}

function requestedDuration(value: string | string[] | undefined): DurationType | null {
  const text = Array.isArray(value) ? value[0] : value;
  return (DURATIONS as readonly string[]).includes(text ?? "") ? (text as DurationType) : null;
}

export default async function RentPage({ params, searchParams }: Props) {
  await connection(); // price, status and chain settings are read per request
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const [agent, account] = await Promise.all([loadAgent(id), signedInAccount()]);
  if (!agent) notFound();

  const priced = pricedDurations(agent);
  const asked = requestedDuration(query.duration);
  const initial = priced.find((p) => p.duration === asked)?.duration ?? priced[0]?.duration ?? "hour";
  const askedUnpriced = asked !== null && !priced.some((p) => p.duration === asked);
  const reason = agent.notRentableReason ? NOT_RENTABLE[agent.notRentableReason] : null;
  const chain = publicChainSettings();
  // Only channels both the agent and this service offer: a renter never pays for a missing bot.
  const offered = availableChannels();
  // (A2A is never among them: an access protocol every listing has, not a channel bought.)
  const channels = agent.channels.filter((channel): channel is CheckoutChannel => (offered as string[]).includes(channel));

  return (
    <main id="main" tabIndex={-1} className="container">
      <p className="back-link">
        <Link href={`/agents/${agent.id}`}>
          <span aria-hidden="true">←</span> Back to {agent.name}
        </Link>
      </p>

      <div className="detail">
        <div className={page.detailMain}>
          <header className={page.detailHeader}>
            <p className="tile-category">{categoryLabel(agent.category)}</p>
            <h1>Rent {agent.name}</h1>
          </header>
          <p className={page.detailDescription}>
            {agent.description.length > 300 ? `${agent.description.slice(0, 300)}…` : agent.description}
          </p>
          <dl className={page.facts}>
            <div>
              <dt>Prices</dt>
              <dd>
                <ul className="tags" aria-label="Prices">
                  {priced.map(({ duration, price }) => (
                    <li key={duration} className="tag">
                      {formatUsdc(price)} {DURATION_LABEL[duration].per}
                    </li>
                  ))}
                </ul>
                <span className="hint">+ {formatUsdc(RENTAL_FEE_MICRO)} service fee per rental.</span>
                <span className="hint" data-testid="uptime-guarantee">
                  {" "}
                  {formatGuarantee(agent.guaranteePermille)}: down minutes beyond it are refunded to you automatically when the rental ends.
                </span>
              </dd>
            </div>
            <div>
              <dt>Channels</dt>
              <dd>{channels.map(channelName).join(", ")}</dd>
            </div>
          </dl>
          <section aria-labelledby="how-heading" className={page.how}>
            <h2 id="how-heading">What happens when you pay</h2>
            <ol>
              <li>
                The service checks that {agent.name} is answering right now, then signs a price quote for your wallet (valid for a few
                minutes).
              </li>
              <li>
                You pay the price plus the 1 USDC fee into the escrow contract: you approve the payment in your wallet with a signature and
                send one transaction (or, where the token cannot take a signature, approve USDC and then pay).
              </li>
              <li>As soon as the payment is confirmed you get your rental code, here, on this page.</li>
              <li>The owner is paid the price when the rental ends; the fee goes to the service.</li>
            </ol>
          </section>
        </div>

        <div>
          {askedUnpriced && asked && (
            <p className="notice" role="note">
              This agent is not offered {DURATION_LABEL[asked].per}; choose another duration below.
            </p>
          )}
          {reason ? (
            <div className={`surface ${page.rentCard}`}>
              <h2>Cannot be rented right now</h2>
              <div className="notice" role="note">
                <p>
                  <strong>{reason.badge}.</strong> {reason.explanation}
                </p>
                <p>
                  <Link href="/">Browse agents available now</Link>
                </p>
              </div>
            </div>
          ) : !chain ? (
            <div className={`surface ${page.rentCard}`} data-testid="payments-not-configured">
              <h2>Payments are not available</h2>
              <div className="notice" role="note">
                <p>
                  <strong>Checkout is not configured on this server</strong>, so no payment can be taken. Nothing was charged.
                </p>
                <p>
                  Operators: set <code>CHAIN_ID</code>, <code>CHAIN_RPC_URL</code>, <code>USDC_ADDRESS</code> and{" "}
                  <code>ESCROW_ADDRESS</code>, and <code>CHAIN_PUBLIC_RPC_URL</code> for a chain without a known public endpoint (see
                  docs/deployment.md).
                </p>
              </div>
            </div>
          ) : (
            <Checkout
              agentId={agent.id}
              agentName={agent.name}
              channels={channels}
              links={channelLinks()}
              signedIn={account !== null}
              prices={Object.fromEntries(priced.map(({ duration, price }) => [duration, price.toString()]))}
              initialDuration={initial}
              chain={chain}
            />
          )}
        </div>
      </div>
    </main>
  );
}
