import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { judgeNoticeFailure } from "@/lib/channels/judge-notice-failure";
import { notifyChatUser } from "@/lib/channels/notify-chat-user";
import { db } from "@/lib/db";
import { realClock, type SendClock } from "@/lib/email/send-pacer";
import type { ChatNotice, Prisma } from "@/lib/generated/prisma/client";

export type NoticeSendSummary = {
  tried: number; // tries made by this run
  sent: number; // of which the platform took
  failed: number; // of which failed, due again later
  gaveUp: number; // notices failed for good in this run (refused, unanswered, tries used up, or cut off)
  remaining: number; // notices due when the run stopped for its time budget
};

export type SendNoticesOptions = {
  clock?: SendClock;
  /** How long the run may take (default NOTICE_BUDGET_MS). */
  budgetMs?: number;
  /** Only these notices (ids), if given. */
  only?: string[];
};

// At most this many tries, 1, 2, 4 … 64 minutes apart after each failure (about 2 hours in all);
// a 429's own wait when the platform gives one.
export const MAX_NOTICE_ATTEMPTS = 8;
const RETRY_BASE_MS = 60_000;
// A try still `pending` this long after it began was cut off (the process stopped): the platform
// may have delivered it, so it is given up, never sent again.
export const NOTICE_TRY_LEASE_MS = 10 * 60_000;
// Claimed together and sent at once: each to another chat, so the platforms' per-chat limits
// (Telegram: one message a second per chat) are never met.
const BATCH = 10;
// Inside the route's 300 s; a batch is claimed only while a slow platform (15 s client timeouts,
// Slack's two retries) leaves it time to finish.
export const NOTICE_BUDGET_MS = 250_000;
const SLOWEST_TRY_MS = 45_000;

/**
 * The chat half of the sender (the send-messages cron): queued notices, and failed ones due again,
 * are claimed (FOR UPDATE SKIP LOCKED; the claim counts the try and leases the row), sent through
 * the platform, and recorded. A notice is sent at most once: the claim and the unique key keep two
 * runs from sending it, and a try that may have reached the platform is never repeated
 * (judgeNoticeFailure).
 */
export async function sendChatNotices(options: SendNoticesOptions = {}): Promise<NoticeSendSummary> {
  const clock = options.clock ?? realClock;
  const only = options.only;
  const summary: NoticeSendSummary = { tried: 0, sent: 0, failed: 0, gaveUp: 0, remaining: 0 };
  const started = clock.now();
  const lastClaim = started.getTime() + (options.budgetMs ?? NOTICE_BUDGET_MS) - SLOWEST_TRY_MS;
  summary.gaveUp += await giveUpCutOffTries(started, only);
  while (clock.now().getTime() <= lastClaim) {
    const now = clock.now();
    const claimed = await claimDue(now, only);
    if (claimed.length === 0) break;
    for (const outcome of await Promise.all(claimed.map((notice) => deliverNotice(notice, now)))) {
      summary.tried++;
      summary[outcome]++;
    }
  }
  summary.remaining = await db.chatNotice.count({ where: due(clock.now(), only) });
  if (summary.remaining > 0)
    console.warn(`[channels] the sender stopped for its time budget; ${summary.remaining} chat notice(s) left for the next run`);
  return summary;
}

async function deliverNotice(notice: ChatNotice, at: Date): Promise<"sent" | "failed" | "gaveUp"> {
  const target = { platform: notice.platform as ChatPlatform, id: notice.chatUser, chatId: notice.chatId };
  try {
    await notifyChatUser(target, notice.text);
  } catch (error) {
    const failure = judgeNoticeFailure(error);
    const last = !failure.retry || notice.attempts >= MAX_NOTICE_ATTEMPTS;
    const nextAttemptAt = last ? null : new Date(at.getTime() + (failure.retryAfterMs ?? RETRY_BASE_MS * 2 ** (notice.attempts - 1)));
    const reason = last && failure.retry ? `gave up after ${notice.attempts} tries: ${failure.reason}` : failure.reason;
    console.error(
      `[channels] ${notice.platform} notice ${notice.idempotencyKey} not sent (try ${notice.attempts} of ${MAX_NOTICE_ATTEMPTS}): ${reason}` +
        (nextAttemptAt ? `; next try at ${nextAttemptAt.toISOString()}` : ""),
    );
    await db.chatNotice.updateMany({
      where: { id: notice.id, status: "pending", attempts: notice.attempts },
      data: { status: "failed", error: reason, nextAttemptAt },
    });
    return last ? "gaveUp" : "failed";
  }
  // Recorded whatever happened to the row meanwhile: it must never be sent again.
  await db.chatNotice.update({ where: { id: notice.id }, data: { status: "sent", error: null, nextAttemptAt: null } });
  return "sent";
}

function due(now: Date, only: string[] | undefined): Prisma.ChatNoticeWhereInput {
  return {
    ...(only ? { id: { in: only } } : {}),
    status: { in: ["queued", "failed"] },
    attempts: { lt: MAX_NOTICE_ATTEMPTS },
    nextAttemptAt: { lte: now },
  };
}

async function claimDue(now: Date, only: string[] | undefined): Promise<ChatNotice[]> {
  const lease = new Date(now.getTime() + NOTICE_TRY_LEASE_MS);
  const ids = only ?? null;
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE chat_notices SET attempts = attempts + 1, status = 'pending', next_attempt_at = ${lease}, last_attempt_at = ${now}
    WHERE id IN (
      SELECT id FROM chat_notices
      WHERE status IN ('queued', 'failed') AND attempts < ${MAX_NOTICE_ATTEMPTS} AND next_attempt_at <= ${now}
        AND (${ids}::uuid[] IS NULL OR id = ANY(${ids}::uuid[]))
      ORDER BY next_attempt_at, created_at
      LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id`;
  if (rows.length === 0) return [];
  return db.chatNotice.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { createdAt: "asc" } });
}

// A try cut off mid-way (the process stopped) may have reached the platform: never sent again.
async function giveUpCutOffTries(now: Date, only: string[] | undefined): Promise<number> {
  const { count } = await db.chatNotice.updateMany({
    where: { ...(only ? { id: { in: only } } : {}), status: "pending", nextAttemptAt: { lte: now } },
    data: {
      status: "failed",
      error: "the try was cut off before the platform answered: not sent again, it may have arrived",
      nextAttemptAt: null,
    },
  });
  return count;
}
