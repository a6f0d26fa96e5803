import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { clientIp } from "@/lib/http/client-ip";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import { type KnownCredentials, rentalCodeDigest } from "@/lib/ratelimit/known-credentials";
import { knownCredentials, limiters } from "@/lib/ratelimit/policies";
import type { RateLimiter } from "@/lib/ratelimit/rate-limiter";
import { withFailureBudgets } from "@/lib/ratelimit/with-failure-budgets";
import type { RentalLookup, RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { parseRentalCode } from "@/lib/rentals/parse-rental-code";
import { findRecentRentalByCode } from "@/lib/rentals/recent-rental-lookups";

// A code that worked is remembered until a day after its rental ends: long enough for the
// renter to read the final status, no longer than the code is of any use.
const REMEMBER_AFTER_END_MS = 24 * 60 * 60 * 1000;

const rememberForMs = (endsAt: Date) => endsAt.getTime() + REMEMBER_AFTER_END_MS - Date.now();

// A rental's 8-character code is known to work from the moment the rental exists, so its first
// use passes even while the guessing breaker is open. Best effort: the store being down only
// means the first use spends a token as a guess would.
export async function rememberRentalCode(
  rental: { id: string; endsAt: Date },
  known: KnownCredentials = knownCredentials(),
): Promise<void> {
  await known.remember(rentalCodeDigest(rental.id), rememberForMs(rental.endsAt)).catch(() => {});
}

export type RentalAuthDeps = {
  lookup: (hexPrefix: string) => Promise<RentalLookup>;
  // Failed lookups per client IP, and across all clients (the breaker).
  failedLookups: RateLimiter;
  failedLookupsGlobal: RateLimiter;
  known: KnownCredentials;
};

const defaultDeps = (): RentalAuthDeps => ({
  lookup: findRecentRentalByCode,
  failedLookups: limiters().failedCodeLookup,
  failedLookupsGlobal: limiters().failedCodeLookupGlobal,
  known: knownCredentials(),
});

// Resolves the rental code of a /v1 request. `unknownStatus` differs by endpoint (spec: status
// answers 404 for an unknown rental, chat 401). Guessing codes is made slow by two budgets of
// failed lookups, one per client IP and one across all clients, each spent BEFORE the lookup of
// a code that has not been seen to work (withFailureBudgets): parallel guesses cannot outrun
// them, and a code that matches gets its tokens back at once. A code is remembered by its first
// 8 characters (rentalCodeDigest), so every form of a working code skips the budgets.
export async function authenticateRental(
  req: Request,
  unknownStatus: 401 | 404,
  deps: RentalAuthDeps = defaultDeps(),
): Promise<RentalWithAgent> {
  const raw = credentialFromHeaders(req.headers);
  if (!raw) {
    throw new ApiError(401, "Missing rental code: send it as 'X-API-Key: <code>' or 'Authorization: Bearer <code>'.");
  }
  const hex = parseRentalCode(raw);
  if (!hex) {
    throw new ApiError(401, "Invalid rental code: use the first 8 or more hex characters of your rental ID (dashes optional).");
  }
  return withFailureBudgets({
    digest: rentalCodeDigest(hex),
    known: deps.known,
    budgets: [
      {
        limiter: deps.failedLookups,
        key: clientIp(req.headers),
        refused: (d) => rateLimitError(d, "Too many wrong rental codes from this address (at most 10 a minute)"),
      },
      {
        limiter: deps.failedLookupsGlobal,
        key: "all",
        refused: (d) =>
          rateLimitError(
            d,
            "This service is refusing rental codes it has not seen in use, because too many wrong codes are being tried across all clients (a guessing attack); codes in use keep working",
          ),
      },
    ],
    attempt: async () => {
      const lookup = await deps.lookup(hex);
      if (lookup.kind === "found") return { ok: true, value: lookup.rental, rememberForMs: rememberForMs(lookup.rental.endsAt) };
      if (lookup.kind === "ambiguous") {
        return {
          ok: false,
          error: new ApiError(400, "This rental code matches more than one rental; send more characters of the rental ID."),
        };
      }
      const message = unknownStatus === 404 ? "Rental not found: check the rental code." : "Invalid rental code: no rental matches it.";
      // Charged, but only the 8-character form's lookup tells that the remembered code is dead: a
      // longer form that matches nothing has a wrong tail, and forgetting its code would lock the
      // renter out by a typo while the breaker is open. Skipping the budgets this way needs the
      // 8 characters, which are the code itself, so it helps no guesser.
      return { ok: false, error: new ApiError(unknownStatus, message), keepKnown: hex.length > 8 };
    },
  });
}
