import "server-only";
import { randomBytes } from "node:crypto";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

type Ciphers = { webhookUrlCipher: string | null; webhookTokenCipher: string | null; webhookSigningSecretCipher?: string | null };
/** What a call to an owner's webhook needs. signingSecret: null for a listing not yet given one. */
export type WebhookCredentials = { url: string; token: string; signingSecret?: string | null };

type Column = "webhook_url" | "webhook_token" | "webhook_signing_secret";
// The additional data binds each ciphertext to its agent and column, so a value copied into
// another row (or swapped between columns) does not decrypt.
const aad = (agentId: string, column: Column) => `agent:${agentId}:${column}`;

export function sealWebhookCredentials(agentId: string, creds: WebhookCredentials) {
  return {
    webhookUrlCipher: encryptSecret(creds.url, aad(agentId, "webhook_url")),
    webhookTokenCipher: encryptSecret(creds.token, aad(agentId, "webhook_token")),
    ...(creds.signingSecret ? sealSigningSecret(agentId, creds.signingSecret) : {}),
  };
}

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealSigningSecret(agentId: string, secret: string) {
  return { webhookSigningSecretCipher: encryptSecret(secret, aad(agentId, "webhook_signing_secret")) };
}

/** The stored signing secret, or null when there is none or it no longer decrypts. */
export function openSigningSecret(agentId: string, cipher: string | null): string | null {
  if (!cipher) return null;
  try {
    return decryptSecret(cipher, aad(agentId, "webhook_signing_secret"));
  } catch {
    return null;
  }
}

export function openWebhookCredentials(agentId: string, ciphers: Ciphers): WebhookCredentials | null {
  if (!ciphers.webhookUrlCipher || !ciphers.webhookTokenCipher) return null;
  return {
    url: decryptSecret(ciphers.webhookUrlCipher, aad(agentId, "webhook_url")),
    token: decryptSecret(ciphers.webhookTokenCipher, aad(agentId, "webhook_token")),
    signingSecret: ciphers.webhookSigningSecretCipher
      ? decryptSecret(ciphers.webhookSigningSecretCipher, aad(agentId, "webhook_signing_secret"))
      : null,
  };
}

/**
 * The host of a connected webhook's URL ("agent.example.com:8443"), for its owner's page. Only the
 * URL is opened, never the token, and only its host leaves: a path or query may hold a secret of
 * its own. null when the stored URL can no longer be read (a key gone from the keyring): the
 * owner must connect the webhook again.
 */
export function openWebhookHost(agentId: string, webhookUrlCipher: string): string | null {
  try {
    return new URL(decryptSecret(webhookUrlCipher, aad(agentId, "webhook_url"))).host;
  } catch {
    return null;
  }
}
