import "server-only";
import { hashAuthToken, isWellFormedAuthToken } from "@/lib/auth/auth-token";
import { db } from "@/lib/db";
import type { SignInErrorCode } from "@/lib/schemas/auth";

export type MagicLinkState = { ok: true; email: string } | { ok: false; reason: SignInErrorCode };

/** What an e-mailed link would do, without spending it: sign `email` in, or why it cannot. */
export async function inspectMagicLink(token: string | null, now = new Date()): Promise<MagicLinkState> {
  if (!isWellFormedAuthToken(token)) return { ok: false, reason: "link-invalid" };
  const link = await db.magicLink.findUnique({
    where: { tokenHash: hashAuthToken(token) },
    select: { email: true, usedAt: true, expiresAt: true },
  });
  if (!link) return { ok: false, reason: "link-invalid" };
  if (link.usedAt) return { ok: false, reason: "link-used" };
  if (link.expiresAt <= now) return { ok: false, reason: "link-expired" };
  return { ok: true, email: link.email };
}
