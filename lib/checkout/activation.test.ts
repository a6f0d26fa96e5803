import { describe, expect, it } from "vitest";
import { activationSteps, chatCurl, statusCurl } from "@/lib/checkout/activation";

describe("activation instructions", () => {
  it("builds a ready curl for the chat API", () => {
    expect(chatCurl("https://rent.example/", "d8ca3b8c")).toBe(
      [
        "curl -X POST 'https://rent.example/api/v1/chat' \\",
        "  -H 'Content-Type: application/json' \\",
        "  -H 'X-API-Key: d8ca3b8c' \\",
        `  -d '{"message":"Hello! What can you do?"}'`,
      ].join("\n"),
    );
    // A quote in the message stays valid shell.
    expect(chatCurl("http://localhost:3000", "abc", "it's")).toContain(`-d '{"message":"it'\\''s"}'`);
  });

  it("builds a ready curl for the status API", () => {
    expect(statusCurl("https://rent.example/", "d8ca3b8c")).toBe("curl 'https://rent.example/api/v1/status' -H 'X-API-Key: d8ca3b8c'");
  });

  it("tells chat-channel renters the bot's start command, with the bot's link when the service runs it", () => {
    const links = { telegramBot: "agent_rental_bot", discordApplicationId: null, slackInstallUrl: null };
    const steps = activationSteps("Telegram", "d8ca3b8c", "https://rent.example", links);
    expect(steps.map((s) => s.command).filter(Boolean)).toEqual(["/start d8ca3b8c"]);
    expect(steps[0].link).toEqual({ href: "https://t.me/agent_rental_bot?start=d8ca3b8c", label: "Open in Telegram" });
    expect(
      activationSteps("Discord", "d8ca3b8c", "https://rent.example", links)
        .map((s) => s.command)
        .filter(Boolean),
    ).toEqual(["/start code:d8ca3b8c"]);
    expect(
      activationSteps("Slack", "d8ca3b8c", "https://rent.example", links)
        .map((s) => s.command)
        .filter(Boolean),
    ).toEqual(["/agent start d8ca3b8c"]);
    const api = activationSteps("API", "d8ca3b8c", "https://rent.example", links);
    expect(api[0].command).toContain("X-API-Key: d8ca3b8c");
    expect(api[1].command).toContain("/api/v1/status");
  });
});
