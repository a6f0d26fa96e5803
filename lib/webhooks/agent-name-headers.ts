// The spec sends the listing's name in `X-Agent-Name` so one runtime can serve several listings.
// A header value is bytes, and Node refuses characters beyond Latin-1 (and control characters)
// in one, so a name such as "Bot — 24/7", "日本語エージェント" or "🤖 Helper" used to make every
// call to that agent's webhook throw. Printable ASCII names are sent as they always were; any
// other name is sent as its UTF-8 bytes percent-encoded (what encodeURIComponent produces, so
// decodeURIComponent restores it), flagged by `X-Agent-Name-Encoding: percent` (docs/webhooks.md).
// Every call to an owner's webhook takes its name headers from here.

// No leading or trailing space: a receiver trims header values, which would change the name.
const PLAIN_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export const AGENT_NAME_ENCODING = "percent";

export function agentNameHeaders(name: string): Record<string, string> {
  if (PLAIN_ASCII.test(name)) return { "X-Agent-Name": name };
  // The round trip through UTF-8 turns a lone surrogate (which encodeURIComponent refuses) into
  // U+FFFD, as the database would have stored it.
  const wellFormed = Buffer.from(name, "utf8").toString("utf8");
  return { "X-Agent-Name": encodeURIComponent(wellFormed), "X-Agent-Name-Encoding": AGENT_NAME_ENCODING };
}
