import "server-only";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secret-box";

type Ciphers = { webhookUrlCipher: string | null; webhookTokenCipher: string | null };
export type WebhookCredentials = { url: string; token: string };

// The additional data binds each ciphertext to its agent and column, so a value copied into
// another row (or swapped between URL and token) does not decrypt.
const aad = (agentId: string, column: "webhook_url" | "webhook_token") => `agent:${agentId}:${column}`;

export function sealWebhookCredentials(agentId: string, creds: WebhookCredentials) {
  return {
    webhookUrlCipher: encryptSecret(creds.url, aad(agentId, "webhook_url")),
    webhookTokenCipher: encryptSecret(creds.token, aad(agentId, "webhook_token")),
  };
}

export function openWebhookCredentials(agentId: string, ciphers: Ciphers): WebhookCredentials | null {
  if (!ciphers.webhookUrlCipher || !ciphers.webhookTokenCipher) return null;
  return {
    url: decryptSecret(ciphers.webhookUrlCipher, aad(agentId, "webhook_url")),
    token: decryptSecret(ciphers.webhookTokenCipher, aad(agentId, "webhook_token")),
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
