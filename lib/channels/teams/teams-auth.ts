import "server-only";
import { createRemoteJWKSet, jwtVerify } from "jose";

// The issuer of every token the Bot Framework signs the requests Teams sends a bot with.
const BOT_FRAMEWORK_ISSUER = "https://api.botframework.com";
// A bot token is fetched again this long before it expires.
const TOKEN_MARGIN_MS = 5 * 60_000;

type KeySet = ReturnType<typeof createRemoteJWKSet>;
const keySets = new Map<string, Promise<KeySet>>();

// The signing keys named by the OpenID metadata (jose caches them and refetches on an unknown kid).
function signingKeys(metadataUrl: string): Promise<KeySet> {
  let keys = keySets.get(metadataUrl);
  if (!keys) {
    keys = fetch(metadataUrl, { signal: AbortSignal.timeout(10_000) })
      .then(async (res) => {
        if (!res.ok) throw new Error(`the Bot Framework's OpenID metadata answered HTTP ${res.status}`);
        const { jwks_uri } = (await res.json()) as { jwks_uri?: unknown };
        if (typeof jwks_uri !== "string") throw new Error("the Bot Framework's OpenID metadata names no jwks_uri");
        return createRemoteJWKSet(new URL(jwks_uri));
      })
      .catch((error: unknown) => {
        keySets.delete(metadataUrl); // asked again on the next request
        throw error;
      });
    keySets.set(metadataUrl, keys);
  }
  return keys;
}

const sameUrl = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" && a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();

/**
 * Whether a request to the Teams route was signed by the Bot Framework for this bot (the adapter's
 * `webhookVerifier`; anything falsy or thrown is a 401): an RS256 token from the keys of
 * `metadataUrl`, issued by the Bot Framework, for `appId`, current (5 minutes' leeway, as the
 * Bot Framework allows), whose serviceurl claim is the activity's serviceUrl — the bot's token
 * goes to that URL with the reply, so no one may name another — and whose signing key is endorsed
 * for the activity's channelId (the JWKS lists, per key, the channels it may sign for).
 */
export function teamsRequestVerifier(appId: string, metadataUrl: string) {
  return async (request: Request, body: string): Promise<boolean> => {
    const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (!token) return false;
    const keys = await signingKeys(metadataUrl);
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer: BOT_FRAMEWORK_ISSUER,
      audience: appId,
      algorithms: ["RS256"],
      clockTolerance: 300,
    });
    const activity = JSON.parse(body) as { serviceUrl?: unknown; channelId?: unknown };
    return sameUrl(payload.serviceurl, activity.serviceUrl) && endorsed(keys, protectedHeader.kid, activity.channelId);
  };
}

// As the Bot Framework's own validator: an activity naming no channel asserts none; one that names
// a channel must be signed by a key endorsed for it (the keys just used to verify are the cached set).
function endorsed(keys: KeySet, kid: string | undefined, channelId: unknown): boolean {
  if (typeof channelId !== "string" || channelId.trim() === "") return true;
  const key = keys.jwks()?.keys.find((k) => k.kid === kid) as { endorsements?: unknown } | undefined;
  return (
    Array.isArray(key?.endorsements) && key.endorsements.some((e) => typeof e === "string" && e.toLowerCase() === channelId.toLowerCase())
  );
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

/**
 * The bot's own token for its calls to the Bot Framework (the adapter's `token` factory): the
 * client-credentials grant of Microsoft Entra at `loginUrl`, kept until shortly before it expires
 * (the adapter keeps no token a factory gives it).
 */
export function teamsTokenSource(loginUrl: string, appId: string, password: string, defaultTenant: string | undefined) {
  return async (scope: string | string[], tenantId?: string): Promise<string> => {
    const tenant = tenantId ?? defaultTenant ?? "botframework.com";
    const scopes = [scope].flat().join(" ");
    const key = JSON.stringify([loginUrl, appId, tenant, scopes]);
    const kept = tokens.get(key);
    if (kept && kept.expiresAt > Date.now() + TOKEN_MARGIN_MS) return kept.token;
    const res = await fetch(`${loginUrl.replace(/\/+$/, "")}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: appId, client_secret: password, scope: scopes }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`Microsoft Entra refused the Teams bot's token (HTTP ${res.status})`);
    const { access_token, expires_in } = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof access_token !== "string") throw new Error("Microsoft Entra answered without an access token");
    tokens.set(key, { token: access_token, expiresAt: Date.now() + (typeof expires_in === "number" ? expires_in : 3600) * 1000 });
    return access_token;
  };
}
