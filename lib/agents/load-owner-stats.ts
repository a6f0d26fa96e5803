import "server-only";
import { measuredUptime } from "@/lib/agents/load-reliability";
import { loadRentedMinutes } from "@/lib/availability/load-rented-minutes";
import { addRentedMinutes } from "@/lib/availability/rented-minutes";
import { db } from "@/lib/db";
import { Channel } from "@/lib/generated/prisma/enums";
import { microToUsdc } from "@/lib/money/usdc";

type RentalRow = { agent_id: string | null; total: number; active: number; released: bigint; in_escrow: bigint; trials: number };
type CallRow = {
  agent_id: string | null;
  calls: number;
  trial_calls: number;
  errors: number;
  p50: number | null;
  p95: number | null;
} & Record<Channel, number>;
type CheckRow = { agent_id: string | null; ok: number; checks: number };
type AnswerRow = { agent_id: string | null; earned: bigint };

const UPTIME_WINDOW_MS = 7 * 24 * 3_600_000;

// Figures for each of the account's agents and for the account as a whole. Each table is read
// once, aggregated in SQL; ROLLUP adds the account's total row (agent_id NULL) to the per-agent
// rows, so totals are exact aggregates (a p95 of all calls, not an average of p95s).
//   rentals:   paid rentals (not awaiting payment); active = status active and not yet ended
//   revenue:   released = completed rentals' prices, less any part a dispute refunded; inEscrow =
//              active or disputed rentals' prices; perMessage = the prices of answers sold per
//              message and settled (credited in the escrow to the owner, withdrawn from Payouts)
//   chatCalls: renter messages, and by channel (the API and each chat bot) in chatCallsByChannel;
//              errorRate = share answered with a 5xx (0 when there were none)
//   latencyMs: webhook round trip of calls that reached the webhook (percentile_cont)
//   trials:    free trials (docs/trials.md), counted apart from everything above: started = trials
//              given to renters, calls = their messages (answered or not). Rentals, revenue, chat
//              calls, error rate and latency are of paid rentals only.
//   uptime7d:  the marketplace's rule (measuredUptime): over the last 7 days, the share of rented
//              minutes up when the agent's rentals hold an hour of them, else the share of
//              scheduled health checks passed (the owner's connection tests left out), else null;
//              uptimeSource says which. The total applies the rule to all the agents' minutes and
//              checks together.
export async function loadOwnerStats(ownerId: string, now: Date = new Date()) {
  const since = new Date(now.getTime() - UPTIME_WINDOW_MS);
  const [agents, rentals, calls, checks, minutes, answers] = await Promise.all([
    db.agent.findMany({
      where: { ownerId },
      select: { id: true, name: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.$queryRaw<RentalRow[]>`
      SELECT r.agent_id,
             count(*) FILTER (WHERE NOT r.trial)::int AS total,
             count(*) FILTER (WHERE NOT r.trial AND r.status = 'active' AND r.ends_at > ${now})::int AS active,
             coalesce(sum(r.price_micro_usdc - coalesce(r.dispute_refund_micro_usdc, 0)) FILTER (WHERE NOT r.trial AND r.status = 'completed'), 0)::bigint AS released,
             coalesce(sum(r.price_micro_usdc) FILTER (WHERE NOT r.trial AND r.status IN ('active', 'disputed')), 0)::bigint AS in_escrow,
             count(*) FILTER (WHERE r.trial)::int AS trials
        FROM rentals r JOIN agents a ON a.id = r.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND r.status <> 'pending'
       GROUP BY ROLLUP (r.agent_id)`,
    db.$queryRaw<CallRow[]>`
      SELECT c.agent_id,
             count(*) FILTER (WHERE NOT c.trial)::int AS calls,
             count(*) FILTER (WHERE c.trial)::int AS trial_calls,
             count(*) FILTER (WHERE NOT c.trial AND c.status_code >= 500)::int AS errors,
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'API')::int AS "API",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'Telegram')::int AS "Telegram",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'Discord')::int AS "Discord",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'Slack')::int AS "Slack",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'WhatsApp')::int AS "WhatsApp",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'Teams')::int AS "Teams",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'GoogleChat')::int AS "GoogleChat",
             count(*) FILTER (WHERE NOT c.trial AND c.channel = 'A2A')::int AS "A2A",
             percentile_cont(0.5) WITHIN GROUP (ORDER BY c.latency_ms) FILTER (WHERE NOT c.trial AND c.webhook_status IS NOT NULL) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY c.latency_ms) FILTER (WHERE NOT c.trial AND c.webhook_status IS NOT NULL) AS p95
        FROM (SELECT c.*, coalesce(r.trial, false) AS trial
                FROM chat_calls c JOIN agents a ON a.id = c.agent_id LEFT JOIN rentals r ON r.id = c.rental_id
               WHERE a.owner_id = ${ownerId}::uuid) c
       GROUP BY ROLLUP (c.agent_id)`,
    db.$queryRaw<CheckRow[]>`
      SELECT h.agent_id, count(*) FILTER (WHERE h.ok)::int AS ok, count(*)::int AS checks
        FROM health_checks h JOIN agents a ON a.id = h.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND h.trigger = 'schedule' AND h.created_at > ${since}
       GROUP BY ROLLUP (h.agent_id)`,
    loadRentedMinutes({ ownerId }, since, now),
    db.$queryRaw<AnswerRow[]>`
      SELECT p.agent_id, coalesce(sum(p.price_micro_usdc), 0)::bigint AS earned
        FROM message_payments p JOIN agents a ON a.id = p.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND p.status = 'settled'
       GROUP BY ROLLUP (p.agent_id)`,
  ]);
  const allMinutes = [...minutes.values()].reduce(addRentedMinutes, { elapsed: 0, down: 0 });

  const byAgent = <T extends { agent_id: string | null }>(rows: T[]) => new Map(rows.map((row) => [row.agent_id, row]));
  const [rentalsOf, callsOf, checksOf, answersOf] = [byAgent(rentals), byAgent(calls), byAgent(checks), byAgent(answers)];
  // agentId null selects the ROLLUP total row.
  const figures = (agentId: string | null) => {
    const r = rentalsOf.get(agentId);
    const c = callsOf.get(agentId);
    const h = checksOf.get(agentId);
    return {
      rentals: { total: r?.total ?? 0, active: r?.active ?? 0 },
      revenue: {
        released: microToUsdc(r?.released ?? 0n),
        inEscrow: microToUsdc(r?.in_escrow ?? 0n),
        perMessage: microToUsdc(answersOf.get(agentId)?.earned ?? 0n),
      },
      chatCalls: c?.calls ?? 0,
      // Free trials, apart from the paid figures (docs/trials.md).
      trials: { started: r?.trials ?? 0, calls: c?.trial_calls ?? 0 },
      chatCallsByChannel: Object.fromEntries(Object.values(Channel).map((channel) => [channel, c?.[channel] ?? 0])) as Record<
        Channel,
        number
      >,
      errorRate: c?.calls ? round(c.errors / c.calls, 4) : 0,
      latencyMs: { p50: roundOrNull(c?.p50, 0), p95: roundOrNull(c?.p95, 0) },
      ...uptime7d(measuredUptime(agentId === null ? allMinutes : minutes.get(agentId), h, 2)),
    };
  };
  return {
    agents: agents.map((agent) => ({ id: agent.id, name: agent.name, ...figures(agent.id) })),
    total: figures(null),
  };
}

const uptime7d = ({ uptime, uptimeSource }: ReturnType<typeof measuredUptime>) => ({ uptime7d: uptime, uptimeSource });
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const roundOrNull = (value: number | null | undefined, decimals: number) => (value == null ? null : round(value, decimals));
