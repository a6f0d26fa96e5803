import { describe, expect, it, vi } from "vitest";
import { webhookConnectionSchema } from "@/lib/schemas/webhook-connection";
import { mockedCookies } from "@/test/dashboard-session";
import { generateWebhookToken } from "./webhook-token";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));

describe("generateWebhookToken", () => {
  it("is 43 base64url characters (256 bits), different every time, and accepted as a webhook token", () => {
    const tokens = new Set(Array.from({ length: 50 }, generateWebhookToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(webhookConnectionSchema.safeParse({ webhookUrl: "https://agent.example.com/hooks/agent", webhookToken: token }).success).toBe(
        true,
      );
    }
  });
});
