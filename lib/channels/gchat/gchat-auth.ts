import "server-only";
import { OAuth2Client } from "google-auth-library";
import { importPKCS8, SignJWT } from "jose";

// Posting to a direct message as the Chat app.
const SCOPE = "https://www.googleapis.com/auth/chat.bot";

type ServiceAccount = { client_email: string; private_key: string; private_key_id?: string; token_uri: string };

/**
 * The Chat app's credentials for the Chat API (the adapter's `auth` option): an OAuth2 client whose
 * tokens come from the service account key's own token_uri by the JWT-bearer grant (RFC 7523),
 * as Google's libraries do — theirs always ask https://oauth2.googleapis.com/token, whatever the
 * key names. The client keeps a token until shortly before it expires.
 */
export function googleServiceAccountAuth(account: ServiceAccount): OAuth2Client {
  const client = new OAuth2Client();
  client.refreshHandler = async () => {
    const key = await importPKCS8(account.private_key, "RS256");
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
      .setIssuer(account.client_email)
      .setAudience(account.token_uri)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(key);
    const res = await fetch(account.token_uri, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`Google refused the Chat app's token (HTTP ${res.status})`);
    const { access_token, expires_in } = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof access_token !== "string") throw new Error("Google answered without an access token");
    return { access_token, expiry_date: Date.now() + (typeof expires_in === "number" ? expires_in : 3600) * 1000 };
  };
  return client;
}
