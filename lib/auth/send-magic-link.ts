import "server-only";
import { newAuthToken } from "@/lib/auth/auth-token";
import { magicLinkEmail } from "@/lib/auth/magic-link-email";
import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { appUrl } from "@/lib/env";
import { plural } from "@/lib/format/plural";
import { ApiError } from "@/lib/http/api-error";

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
// At most this many links per address per link lifetime, whoever asks, so the form cannot be used
// to flood someone's inbox. Past it the answer is a 429 that says when to ask again: it tells only
// that links were asked for this address, which the asker did, not whether it has an account.
export const MAGIC_LINKS_PER_ADDRESS = 5;
const KEEP_SPENT_MS = 86_400_000;

// The link opens a confirm page; only its button spends the token (mail scanners open links).
// `next`, the page to land on (already checked as a path on this site), rides along in the link:
// it is no secret, and the confirm page and the callback check it again, so a link edited by hand
// can still only lead somewhere on this site.
export function magicLinkUrl(token: string, next: string | null = null): string {
  const query = new URLSearchParams({ token });
  if (next) query.set("next", next);
  return `${appUrl()}/sign-in/email?${query}`;
}

/**
 * E-mails a one-time sign-in link to `email` (already lower-case). It does the same work and
 * says the same whether or not an account has that address, so the answer reveals nothing;
 * the account is created when the link is first used. A 429 past MAGIC_LINKS_PER_ADDRESS.
 * `next`: the page the link signs in to (null: the dashboard).
 */
export async function sendMagicLink(email: string, next: string | null = null, now = new Date()): Promise<void> {
  const recent = await db.magicLink.findMany({
    where: { email, createdAt: { gt: new Date(now.getTime() - MAGIC_LINK_TTL_MS) } },
    select: { createdAt: true },
    orderBy: { createdAt: "desc" },
    take: MAGIC_LINKS_PER_ADDRESS,
  });
  if (recent.length >= MAGIC_LINKS_PER_ADDRESS) {
    const oldest = recent[recent.length - 1].createdAt;
    const seconds = Math.max(1, Math.ceil((oldest.getTime() + MAGIC_LINK_TTL_MS - now.getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new ApiError(
      429,
      `${MAGIC_LINKS_PER_ADDRESS} sign-in links were sent to this address in the last 15 minutes, so no new one was sent. Use the latest one, or ask again in ${plural(minutes, "minute")}.`,
      { "Retry-After": String(seconds) },
    );
  }

  const { token, hash } = newAuthToken();
  const expiresAt = new Date(now.getTime() + MAGIC_LINK_TTL_MS);
  const link = await db.magicLink.create({
    data: { tokenHash: hash, email, expiresAt, createdAt: now },
    select: { id: true },
  });
  await sendEmail({
    to: email,
    ...magicLinkEmail({ url: magicLinkUrl(token, next), expiresAt }),
    idempotencyKey: `magic-link:${link.id}`,
  });
  await db.magicLink.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - KEEP_SPENT_MS) } } });
}
