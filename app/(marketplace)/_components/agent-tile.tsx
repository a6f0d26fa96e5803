import Link from "next/link";
import { AgentAvatar } from "@/app/_components/agent-avatar";
import { DURATIONS, type MarketplaceAgent } from "@/lib/agents/to-marketplace-agent";
import { channelName } from "@/lib/channels/channel-name";
import { categoryLabel } from "@/lib/format/category";
import { DURATION_LABEL } from "@/lib/format/duration";
import styles from "../marketplace.module.css";
import { AgentStats } from "./agent-stats";
import { ownerLine } from "./owner-line";
import { ReliabilityLine } from "./reliability-figures";
import { UsdcPrice } from "./usdc-price";

const SKILLS_SHOWN = 4;

// A marketplace tile. Every part has a reserved height (clamped lines, all three price rows and
// the price per message always present), so tiles of one row line up and the loading skeleton has the same size.
// The title link is stretched over the whole tile: one tab stop per agent.
export function AgentTile({ agent }: { agent: MarketplaceAgent }) {
  const titleId = `agent-${agent.id}`;
  const hidden = agent.skills.length - SKILLS_SHOWN;
  return (
    <li className={styles.tile}>
      <article aria-labelledby={titleId}>
        <div className={styles.tileHead}>
          <AgentAvatar agent={agent} size={44} />
          <h3 className={styles.tileTitle}>
            <Link href={`/agents/${agent.id}`} id={titleId} className={styles.tileLink}>
              {agent.name}
            </Link>
          </h3>
        </div>
        <p className={styles.tileOwner}>
          <span className="tile-category">{categoryLabel(agent.category)}</span> · {ownerLine(agent.ownerName)}
        </p>
        <p className={styles.tileDescription}>{agent.description}</p>
        <ul className={`tags ${styles.tileTags}`} aria-label="Skills">
          {agent.skills.slice(0, SKILLS_SHOWN).map((skill) => (
            <li key={skill} className="tag">
              {skill}
            </li>
          ))}
          {hidden > 0 && (
            <li className={`tag ${styles.tagMore}`}>
              +{hidden}
              <span className="visually-hidden"> more skills</span>
            </li>
          )}
        </ul>
        <p className={styles.tileChannels}>
          <span className="visually-hidden">Channels: </span>
          {agent.channels.map(channelName).join(" · ")}
        </p>
        <dl className={styles.tilePrices}>
          {DURATIONS.map((duration) => {
            const price = agent.prices[duration];
            return (
              <div key={duration} className={price === null ? `${styles.tilePrice} ${styles.isMissing}` : styles.tilePrice}>
                <dt>{DURATION_LABEL[duration].per}</dt>
                <dd>{price === null ? "not offered" : <UsdcPrice micro={price} />}</dd>
              </div>
            );
          })}
          <div className={agent.pricePerMessage === null ? `${styles.tilePrice} ${styles.isMissing}` : styles.tilePrice}>
            <dt>per message</dt>
            <dd>{agent.pricePerMessage === null ? "not sold" : <UsdcPrice micro={agent.pricePerMessage} />}</dd>
          </div>
        </dl>
        {agent.trialMessages !== null && (
          <p className={styles.tileTrial} data-testid="trial-offer">
            Try {agent.trialMessages} {agent.trialMessages === 1 ? "message" : "messages"} free
          </p>
        )}
        <ReliabilityLine reliability={agent.reliability} />
        <AgentStats rating={agent.rating} totalRentals={agent.totalRentals} oneLine />
      </article>
    </li>
  );
}
