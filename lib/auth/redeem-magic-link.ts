import "server-only";
import { hashAuthToken, isWellFormedAuthToken } from "@/lib/auth/auth-token";
import { inspectMagicLink } from "@/lib/auth/inspect-magic-link";
import { db } from "@/lib/db";
import type { SignInErrorCode } from "@/lib/schemas/auth";

const accountSelect = { id: true, email: true, walletAddress: true, createdAt: true } as const;

export type RedeemedMagicLink =
  | { ok: true; account: { id: string; email: string | null; walletAddress: string | null; createdAt: Date } }
  | { ok: false; reason: SignInErrorCode };

/**
 * Spends an e-mailed link: once, before it expires (on the confirm page's POST, never on the GET
 * that a mail scanner may make). The row is found by the token's hash (the
 * secret is never compared directly) and spent by one conditional UPDATE, so two clicks racing
 * each other sign in once. The account with that e-mail is created on first use.
 */
export async function redeemMagicLink(token: string | null, now = new Date()): Promise<RedeemedMagicLink> {
  if (!isWellFormedAuthToken(token)) return { ok: false, reason: "link-invalid" };
  const tokenHash = hashAuthToken(token);
  const [link] = await db.magicLink.updateManyAndReturn({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
    select: { email: true },
  });
  if (!link) {
    const state = await inspectMagicLink(token, now);
    // Spent or expired a moment ago by a racing click: it cannot be valid any more.
    return { ok: false, reason: state.ok ? "link-used" : state.reason };
  }
  const account = await db.account.upsert({
    where: { email: link.email },
    create: { email: link.email },
    update: {},
    select: accountSelect,
  });
  return { ok: true, account };
}
