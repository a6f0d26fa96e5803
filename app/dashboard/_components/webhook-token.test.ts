import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { webhookConnectionSchema } from "@/lib/schemas/webhook-connection";
import { generateWebhookToken } from "./webhook-token";
import { cookieJar, mockedCookies, redirectOf, signInNewOwner } from "@/test/dashboard-session";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));

const { signOutAction } = await import("@/app/dashboard/sign-out-action");

describe("generateWebhookToken", () => {
  it("is 43 base64url characters (256 bits), different every time, and accepted as a webhook token", () => {
    const tokens = new Set(Array.from({ length: 50 }, generateWebhookToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(webhookConnectionSchema.safeParse({ webhookUrl: "https://agent.example.com/hooks/agent", webhookToken: token }).success).toBe(true);
    }
  });
});
