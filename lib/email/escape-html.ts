import "server-only";

// Every value interpolated into an e-mail's HTML goes through this: agent names and failure
// details are owner- or network-controlled text.
export function escapeHtml(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}
