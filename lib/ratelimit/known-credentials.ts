import "server-only";
import { createHmac } from "node:crypto";
import { deriveSecretKey } from "@/lib/crypto/secret-box";

// Credentials that recently authenticated (a rental code that found its rental, an owner key that
// was valid), kept in the rate-limit store. A request presenting one skips the failed-attempt
// budgets: it is not a guess, so a client that shares its address with a guesser, or sends many
// requests at once, is not refused for the guesser's mistakes, and valid codes keep working while
// the global breaker is open. Entries are keyed hashes, never the credential: a rental code has
// only 32 bits, so a plain SHA-256 of it could be reversed by trying every code.
export interface KnownCredentials {
  has(digest: string): Promise<boolean>;
  // Remembers for `ttlMs` (nothing happens when it is not positive).
  remember(digest: string, ttlMs: number): Promise<void>;
  forget(digest: string): Promise<void>;
}

export type CredentialKind = "rental-code" | "owner-key";

let hmacKey: Buffer | undefined;

// HMAC-SHA-256 under a key derived from SECRET_BOX_KEYS, so the store (Redis at a provider)
// holds nothing that leads back to a code without the server's secret.
export function credentialDigest(kind: CredentialKind, credential: string): string {
  hmacKey ??= deriveSecretKey("known-credentials/v1");
  return createHmac("sha256", hmacKey).update(`${kind}\0${credential}`).digest("base64url");
}

// A rental code is known by its first 8 hex characters, the shortest form accepted: the full
// UUID, with or without dashes, in any case, and every length from 8 to 32 are one code, so the
// breaker lets all of them through once any has worked (or the rental was paid for). Takes any
// accepted form of the code, or the rental's id.
export function rentalCodeDigest(code: string): string {
  return credentialDigest("rental-code", code.replaceAll("-", "").toLowerCase().slice(0, 8));
}
