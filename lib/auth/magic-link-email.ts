import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";
import { formatDateTime } from "@/lib/format/date-time";

// The sign-in e-mail. The same words whether or not the address has an account yet: the first
// sign-in creates it.
export function magicLinkEmail({ url, expiresAt }: { url: string; expiresAt: Date }) {
  const intro = `Use the link below to sign in to Agent Rental Service. It works once, until ${formatDateTime(expiresAt)} (15 minutes).`;
  const ignore = "If you did not ask to sign in, ignore this e-mail: nobody can sign in without the link, and it expires on its own.";
  const text = [intro, "", url, "", ignore].join("\n");
  const html = `<div style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}">Sign in to Agent Rental Service</a></p>
<p style="color: #555">${escapeHtml(ignore)}</p>
</div>`;
  return { subject: "Your sign-in link for Agent Rental Service", text, html };
}
