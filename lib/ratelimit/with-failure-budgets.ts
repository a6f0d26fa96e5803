import "server-only";
import type { ApiError } from "@/lib/http/api-error";
import type { KnownCredentials } from "@/lib/ratelimit/known-credentials";
import type { RateDecision, RateLimiter } from "@/lib/ratelimit/rate-limiter";

// A bucket that failed attempts spend from, and the 429 to answer once it is empty.
export type FailureBudget = { limiter: RateLimiter; key: string; refused: (d: RateDecision) => ApiError };

// A failure is charged either way; `keepKnown` says it did not show a known credential to be dead
// (a rental code's longer form with a wrong tail: the 8-character code it starts with, which is
// what is remembered, may still be good), so it stays remembered.
export type Attempt<T> = { ok: true; value: T; rememberForMs: number } | { ok: false; error: ApiError; keepKnown?: boolean };

// First checks of a credential in flight in this process, by digest; each resolves true when its
// credential matched.
const firstChecks = new Map<string, Promise<boolean>>();

// Checks a credential with its failure budgets spent BEFORE the check, not after it failed:
// otherwise any number of parallel guesses all pass an empty-looking gate and reach the
// database. Each budget gives one token up front (reserved together; if one is empty, the others
// get theirs back and its 429 is the answer); a check that succeeds refunds them and remembers
// the credential, a failed one keeps them. A credential that succeeded recently (`known`) is not
// a guess and skips the budgets; should it fail now (a rental gone), it is charged and, unless the
// failure says otherwise, forgotten.
//
// Requests that present one unknown credential together (a client starting hundreds of chats at
// once, or every client of a rental just after a restart emptied the in-memory store) wait for the
// first one's check instead of each holding a token: its match makes them known. Otherwise they
// all held tokens at once, and past the budget's size (120 across all clients) a valid code was
// answered 429 as a guess. If the first check fails, each goes on as a guess of its own.
export async function withFailureBudgets<T>(options: {
  // Keyed hash of the credential (credentialDigest), or null when there is none to remember.
  digest: string | null;
  known: KnownCredentials;
  budgets: FailureBudget[];
  attempt: () => Promise<Attempt<T>>;
}): Promise<T> {
  const { digest, known, budgets, attempt } = options;
  let isKnown = digest !== null && (await known.has(digest));
  const first = digest === null || isKnown ? undefined : firstChecks.get(digest);
  if (first) isKnown = await first;

  let matched = false;
  let settleFirst: ((matched: boolean) => void) | undefined;
  if (digest !== null && !isKnown && !firstChecks.has(digest)) {
    let resolve!: (matched: boolean) => void;
    firstChecks.set(digest, new Promise<boolean>((r) => (resolve = r)));
    settleFirst = resolve;
  }
  try {
    if (!isKnown) await reserve(budgets);

    let outcome: Attempt<T>;
    try {
      outcome = await attempt();
    } catch (error) {
      // The check itself broke (the database is down): that was no failed guess.
      if (!isKnown) await refund(budgets);
      throw error;
    }

    if (outcome.ok) {
      if (!isKnown) await Promise.all([refund(budgets), digest !== null && known.remember(digest, outcome.rememberForMs)]);
      matched = true;
      return outcome.value;
    }
    if (isKnown) {
      await Promise.all([!outcome.keepKnown && known.forget(digest!), ...budgets.map((b) => b.limiter.limit(b.key))]);
    }
    throw outcome.error;
  } finally {
    if (settleFirst) {
      firstChecks.delete(digest!);
      settleFirst(matched);
    }
  }
}

// One token from every budget, or none: when one is empty the others get theirs back and its
// 429 is thrown.
export async function reserve(budgets: FailureBudget[]): Promise<void> {
  const decisions = await Promise.all(budgets.map((b) => b.limiter.limit(b.key)));
  const denied = decisions.findIndex((d) => !d.allowed);
  if (denied === -1) return;
  await refund(budgets.filter((_, i) => decisions[i].allowed));
  throw budgets[denied].refused(decisions[denied]);
}

async function refund(budgets: FailureBudget[]): Promise<void> {
  await Promise.all(budgets.map((b) => b.limiter.refund(b.key)));
}
