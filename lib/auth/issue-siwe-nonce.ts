import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";

export const SIWE_NONCE_TTL_MS = 10 * 60_000;
// EIP-4361 nonces are alphanumeric, at least 8 characters: 32 hex characters carry 128 bits.
export const SIWE_NONCE_PATTERN = /^[0-9a-f]{32}$/;
// Used and expired nonces are only needed to word an error; a day later they go.
const KEEP_SPENT_MS = 86_400_000;

/** A fresh nonce for one Sign-In with Ethereum message: good once, for 10 minutes from `now`. */
export async function issueSiweNonce(now: Date = new Date()): Promise<{ nonce: string; expiresAt: Date }> {
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = new Date(now.getTime() + SIWE_NONCE_TTL_MS);
  // createdAt from the same clock as expiresAt (not the database's), so the row says exactly 10 minutes.
  await db.authNonce.create({ data: { nonce, createdAt: now, expiresAt } });
  // Housekeeping on the write path (indexed range delete): the table stays at about one day of nonces.
  await db.authNonce.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - KEEP_SPENT_MS) } } });
  return { nonce, expiresAt };
}
