import "server-only";
import { openWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";

type AgentCiphers = {
  id: string;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};

/**
 * The agent's webhook credentials for a chat message, or why there are none to call (spec: a
 * webhook that is not configured is a 503). Ciphertexts that no longer decrypt (say, under a key
 * retired from SECRET_BOX_KEYS) are the owner's to fix by connecting again, not a 500 for the caller.
 */
export function openChatCredentials(agent: AgentCiphers): WebhookCredentials | { problem: string } {
  try {
    const creds = openWebhookCredentials(agent.id, agent);
    if (creds) return creds;
    return { problem: "This agent has no webhook connected yet; the owner must connect one." };
  } catch (error) {
    console.error(
      `[chat] agent ${agent.id}: its webhook credentials do not decrypt: ${error instanceof Error ? error.message : String(error)}`,
    );
    return {
      problem: "This agent's webhook must be connected again by its owner before it can be called; try again later.",
    };
  }
}
