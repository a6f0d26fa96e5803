import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { rememberRentalCode } from "@/lib/rentals/authenticate-rental";
import { DURATION_SECONDS } from "@/lib/rentals/durations";
import { newRentalId } from "@/lib/rentals/new-rental-id";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";

// Abuse limits (issue 29): trials cost their owners real answers, so one account may start at
// most 3 a day and one client address (IPv4, or IPv6 /64) at most 50 a day across all agents — a
// shared office or campus NAT still gets plenty, a script cycling accounts does not. "A day" is
// the 24 hours before the request, counted exactly from the rows themselves (no token bucket:
// it would forget, refill fractionally and live apart from the rows it limits).
export const TRIALS_PER_ACCOUNT_PER_DAY = 3;
export const TRIALS_PER_CLIENT_PER_DAY = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
// A trial lasts until its messages are used, or 30 days (a month, as durations count), whichever
// comes first: /v1/status then reads it as a rental with a real end, and an unused code dies.
export const TRIAL_DURATION = "month" as const;

export type Trial = {
  id: string;
  agentId: string;
  trialMessagesLeft: number;
  startsAt: Date;
  endsAt: Date;
  createdAt: Date;
};

/** Why a trial could not start: the page says it in its own words (never text from the URL). */
export type TrialRefusalReason = "no-agent" | "no-offer" | "unavailable" | "account-day-limit" | "client-day-limit";
export class TrialRefused extends ApiError {
  constructor(
    readonly reason: TrialRefusalReason,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(status, message, headers);
  }
}

export type StartTrialInput = { accountId: string; agentId: string; client: string };

/** The SHA-256 of a client key (clientIp): trials are counted per address without storing it. */
export const trialClientDigest = (client: string) => createHash("sha256").update(`trial-client:${client}`).digest("hex");

const TRIAL_SELECT = { id: true, agentId: true, trialMessagesLeft: true, startsAt: true, endsAt: true, createdAt: true } as const;

/**
 * The account's free trial of this agent: the one it already has (a second request shows the same
 * trial, whatever the limits or the offer say now: one per account per agent, ever), or a new one
 * when the listing offers a trial, can be used now, and neither the account nor the client
 * address has used up its trials of the day. A trial is a rentals row — active, no escrow, no
 * payment, `trial`, the listing's trial messages to spend — so its code works wherever a rental
 * code does (docs/trials.md).
 *
 * Both day limits are exact under concurrency: the account's and the address's transaction-scoped
 * advisory locks (always in that order, so two requests never wait on each other crosswise) make
 * the count and the insert one step per account and per address.
 */
export async function startTrial(input: StartTrialInput, now: Date = new Date()): Promise<{ trial: Trial; created: boolean }> {
  const client = trialClientDigest(input.client);
  const id = await newRentalId();
  const result = await db.$transaction(async (tx) => {
    await lock(tx, `trial-account:${input.accountId}`);
    const existing = await tx.rental.findFirst({
      where: { agentId: input.agentId, renterId: input.accountId, trial: true },
      select: TRIAL_SELECT,
    });
    if (existing) return { trial: asTrial(existing), created: false };

    const agent = await tx.agent.findUnique({
      where: { id: input.agentId },
      select: { id: true, name: true, status: true, trialMessages: true, webhookUrlCipher: true, guaranteePermille: true },
    });
    if (!agent) throw new TrialRefused("no-agent", 404, "No such agent.");
    if (agent.trialMessages === null) throw new TrialRefused("no-offer", 409, `${agent.name} does not offer a free trial.`);
    if (agent.status !== "available" || agent.webhookUrlCipher === null) {
      throw new TrialRefused(
        "unavailable",
        409,
        `${agent.name} is not available right now, so its free trial cannot start; try again later.`,
      );
    }

    const since = new Date(now.getTime() - DAY_MS);
    const mine = await tx.rental.findMany({
      where: { renterId: input.accountId, trial: true, createdAt: { gt: since } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    });
    if (mine.length >= TRIALS_PER_ACCOUNT_PER_DAY) {
      throw dayLimit(
        "account-day-limit",
        `You have started ${TRIALS_PER_ACCOUNT_PER_DAY} free trials in the last 24 hours, the most one account may`,
        mine[mine.length - TRIALS_PER_ACCOUNT_PER_DAY].createdAt,
        now,
      );
    }
    await lock(tx, `trial-client:${client}`);
    const fromClient = await tx.rental.findMany({
      where: { trialClient: client, trial: true, createdAt: { gt: since } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    });
    if (fromClient.length >= TRIALS_PER_CLIENT_PER_DAY) {
      throw dayLimit(
        "client-day-limit",
        `${TRIALS_PER_CLIENT_PER_DAY} free trials were started from your network address in the last 24 hours, the most one address may`,
        fromClient[fromClient.length - TRIALS_PER_CLIENT_PER_DAY].createdAt,
        now,
      );
    }

    const created = await tx.rental.create({
      data: {
        id,
        ...newRentalKeys(),
        agentId: agent.id,
        renterId: input.accountId,
        status: "active",
        durationType: TRIAL_DURATION,
        channel: "API",
        startsAt: now,
        endsAt: new Date(now.getTime() + DURATION_SECONDS[TRIAL_DURATION] * 1000),
        priceMicro: 0n,
        feeMicro: 0n,
        guaranteePermille: agent.guaranteePermille,
        trial: true,
        trialMessagesLeft: agent.trialMessages,
        trialClient: client,
        createdAt: now,
      },
      select: TRIAL_SELECT,
    });
    return { trial: asTrial(created), created: true };
  });
  if (result.created) await rememberRentalCode({ id: result.trial.id, endsAt: result.trial.endsAt });
  return result;
}

/** The account's trial of this agent, if it ever had one. */
export async function findTrial(accountId: string, agentId: string): Promise<Trial | null> {
  const row = await db.rental.findFirst({ where: { agentId, renterId: accountId, trial: true }, select: TRIAL_SELECT });
  return row ? asTrial(row) : null;
}

function asTrial(row: Omit<Trial, "trialMessagesLeft"> & { trialMessagesLeft: number | null }): Trial {
  return { ...row, trialMessagesLeft: row.trialMessagesLeft ?? 0 };
}

async function lock(tx: Prisma.TransactionClient, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

// 429 with the moment the oldest counted trial leaves the 24 hours.
function dayLimit(code: TrialRefusalReason, reason: string, oldestCounted: Date, now: Date): TrialRefused {
  const freeAt = new Date(oldestCounted.getTime() + DAY_MS);
  const seconds = Math.max(1, Math.ceil((freeAt.getTime() - now.getTime()) / 1000));
  return new TrialRefused(code, 429, `${reason}; the next one can start at ${freeAt.toISOString()}.`, { "Retry-After": String(seconds) });
}
