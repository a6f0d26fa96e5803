import "server-only";
import { createHash, randomBytes } from "node:crypto";

// Session tokens and e-mail link tokens: 256 random bits, base64url (43 characters). Only the
// SHA-256 is stored and rows are found by it, so the database never compares the secret itself
// and a stolen table or backup cannot be replayed as cookies or links.
const TOKEN_BYTES = 32;
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

export function hashAuthToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newAuthToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, hash: hashAuthToken(token) };
}

// Cheap shape check before touching the database.
export function isWellFormedAuthToken(token: string | null | undefined): token is string {
  return typeof token === "string" && WELL_FORMED.test(token);
}
