import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";

/** An e-mail of a few paragraphs and one link, as text and as HTML with every value escaped. */
export function plainEmail(subject: string, paragraphs: string[], link: { url: string; label: string }) {
  const text = [...paragraphs.flatMap((p) => [p, ""]), `${link.label}: ${link.url}`].join("\n");
  const html = `<div style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
</div>`;
  return { subject, text, html };
}
