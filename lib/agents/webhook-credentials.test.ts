import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openWebhookCredentials, openWebhookHost, sealWebhookCredentials } from "@/lib/agents/webhook-credentials";

const creds = { url: "https://bots.example.net:8443/hooks/agent?key=path-secret", token: "t".repeat(40) };

describe("webhook credentials", () => {
  it("open as they were sealed, for the agent they were sealed for only", () => {
    const agentId = randomUUID();
    const sealed = sealWebhookCredentials(agentId, creds);
    expect(openWebhookCredentials(agentId, sealed)).toEqual(creds);
    expect(() => openWebhookCredentials(randomUUID(), sealed)).toThrow(/authentication failed/);
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
