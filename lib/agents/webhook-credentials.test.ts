import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  newSigningSecret,
  openSigningSecret,
  openWebhookCredentials,
  openWebhookHost,
  sealWebhookCredentials,
} from "@/lib/agents/webhook-credentials";

const creds = { url: "https://bots.example.net:8443/hooks/agent?key=path-secret", token: "t".repeat(40) };

describe("webhook credentials", () => {
  it("open as they were sealed, for the agent they were sealed for only", () => {
    const agentId = randomUUID();
    const sealed = sealWebhookCredentials(agentId, creds);
    expect(openWebhookCredentials(agentId, sealed)).toEqual({ ...creds, signingSecret: null });
    expect(() => openWebhookCredentials(randomUUID(), sealed)).toThrow(/authentication failed/);
  });

  it("a signing secret is sealed to its agent and column: it opens for that agent only, never as a token", () => {
    const agentId = randomUUID();
    const signingSecret = newSigningSecret();
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sealed = sealWebhookCredentials(agentId, { ...creds, signingSecret });
    expect(sealed.webhookSigningSecretCipher).not.toContain(signingSecret.slice(6));
    expect(openWebhookCredentials(agentId, sealed)).toEqual({ ...creds, signingSecret });
    expect(openSigningSecret(agentId, sealed.webhookSigningSecretCipher ?? null)).toBe(signingSecret);
    expect(openSigningSecret(randomUUID(), sealed.webhookSigningSecretCipher ?? null)).toBeNull();
    expect(openSigningSecret(agentId, sealed.webhookTokenCipher)).toBeNull();
  });

  it("the host alone: no path, query or token; null when the URL no longer opens", () => {
    const agentId = randomUUID();
    const { webhookUrlCipher, webhookTokenCipher } = sealWebhookCredentials(agentId, creds);
    expect(openWebhookHost(agentId, webhookUrlCipher)).toBe("bots.example.net:8443");
    expect(openWebhookHost(randomUUID(), webhookUrlCipher)).toBeNull();
    // The token's ciphertext is bound to the token column: it never opens as a URL.
    expect(openWebhookHost(agentId, webhookTokenCipher)).toBeNull();
  });
});
