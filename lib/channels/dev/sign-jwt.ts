import { createPrivateKey, type KeyObject, sign } from "node:crypto";

/**
 * An RS256 JWT signed with `key` (PKCS#8 PEM or a key object), as Microsoft's and Google's token
 * services sign the tokens their platforms send bots: for the tests, the platform mock and the
 * /dev/channels page (development only). Synchronous, so a request is built at once.
 */
export function signJwt(key: string | KeyObject, kid: string | undefined, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "RS256", typ: "JWT", ...(kid ? { kid } : {}) })}.${part(claims)}`;
  const signature = sign("sha256", Buffer.from(input), typeof key === "string" ? createPrivateKey(key) : key);
  return `${input}.${signature.toString("base64url")}`;
}

/** Now in seconds, as JWTs count time. */
export const epochSeconds = (): number => Math.floor(Date.now() / 1000);

/** The kids of the local key in the platform mock's Bot Framework JWKS and Google certificates. */
export const DEV_TEAMS_KID = "dev-bot-framework-key";
export const DEV_GOOGLE_CHAT_KID = "dev-google-chat-key";
