import "server-only";
import { createHash, randomBytes } from "node:crypto";

// A move command's token: 128 random bits, base64url, after "mv_" (25 characters). Telegram's
// start parameter (the deep link) takes only A-Z a-z 0-9 _ - and at most 64 characters, and the
// prefix keeps it apart from a rental code, which is hex only.
const TOKEN_BYTES = 16;
const WELL_FORMED = /^mv_[A-Za-z0-9_-]{22}$/;

// Long enough to open the other chat app and paste it; short enough that a token left on a
// screen is soon worth nothing.
export const CHAT_MOVE_TTL_MS = 15 * 60_000;

/** Stored and looked up by this: the database never holds or compares the token itself. */
export function hashChatMoveToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newChatMoveToken(): { token: string; hash: string } {
  const token = `mv_${randomBytes(TOKEN_BYTES).toString("base64url")}`;
  return { token, hash: hashChatMoveToken(token) };
}

/** Whether what followed /start is a move command's token (rather than a rental code). */
export function isChatMoveToken(text: string): boolean {
  return WELL_FORMED.test(text);
}
