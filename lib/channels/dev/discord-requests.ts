import "server-only";
import { createPrivateKey, type KeyObject, sign } from "node:crypto";

// Interactions as Discord sends them to the Interactions Endpoint URL, signed with an Ed25519
// private key (the tests' own; in development the one `npm run dev` made): for the tests and the
// /dev/channels page, which go through the real route and its real verification.

type DiscordUser = { id: string; username?: string };
type Where = "dm" | "guild";

let nextId = BigInt(Date.now()) << 22n;

/** The private key from its PKCS#8 DER, base64 (DEV_DISCORD_PRIVATE_KEY). */
export function discordPrivateKey(base64: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(base64, "base64"), format: "der", type: "pkcs8" });
}

export function signedDiscordRequest(
  url: string,
  key: KeyObject,
  payload: unknown,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Request {
  const body = JSON.stringify(payload);
  const signature = sign(null, Buffer.from(timestamp + body), key).toString("hex");
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp },
    body,
  });
}

/** `/<command>` with its options, from a user in a DM with the app or in a server, signed now (or at `timestamp`, Unix seconds). */
export function discordCommandRequest(
  url: string,
  key: KeyObject,
  who: DiscordUser,
  command: string,
  options: Record<string, string> = {},
  extra: { where?: Where; id?: string; timestamp?: number } = {},
): Request {
  const user = { id: who.id, username: who.username ?? `user${who.id.slice(-4)}` };
  const payload = {
    id: extra.id ?? String(nextId++),
    type: 2,
    token: `tok-${Math.random().toString(36).slice(2)}`,
    application_id: "app",
    data: { name: command, type: 1, options: Object.entries(options).map(([name, value]) => ({ name, type: 3, value })) },
    // The channel it was typed in: a server's, or the user's DM with the app.
    ...(extra.where === "guild" ? { member: { user }, guild_id: "g1", channel_id: "c1" } : { user, channel_id: `dm-${who.id}` }),
  };
  return signedDiscordRequest(url, key, payload, extra.timestamp === undefined ? undefined : String(extra.timestamp));
}
