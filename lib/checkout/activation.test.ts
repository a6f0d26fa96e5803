import { describe, expect, it } from "vitest";
import { activationSteps, type ChannelLinks, chatCurl, moveCommandLink, statusCurl } from "@/lib/checkout/activation";

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
    const links: ChannelLinks = {
      telegramBot: "agent_rental_bot",
      discordApplicationId: null,
      slackInstallUrl: null,
      slackAppUrl: null,
      whatsappNumber: null,
      simulated: [],
    };
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

  it("links Slack renters to the app: Add to Slack for their own workspace, or the app in the service's one workspace", () => {
    const none: ChannelLinks = {
      telegramBot: null,
      discordApplicationId: null,
      slackInstallUrl: null,
      slackAppUrl: null,
      whatsappNumber: null,
      simulated: [],
    };
    const first = (links: ChannelLinks) => activationSteps("Slack", "d8ca3b8c", "https://rent.example", links)[0];
    expect(first({ ...none, slackInstallUrl: "https://rent.example/api/channels/slack/install" }).link).toEqual({
      href: "https://rent.example/api/channels/slack/install",
      label: "Add to Slack",
    });
    expect(first({ ...none, slackAppUrl: "https://slack.com/app_redirect?app=A0123ABCDEF" })).toEqual({
      text: "Open the app in the service's Slack workspace.",
      link: { href: "https://slack.com/app_redirect?app=A0123ABCDEF", label: "Open the app in Slack" },
    });
  });

  it("in development, leads every simulated bot's link to the simulator with the command filled in, never to t.me", () => {
    const dev: ChannelLinks = {
      telegramBot: null,
      discordApplicationId: null,
      slackInstallUrl: null,
      slackAppUrl: null,
      whatsappNumber: null,
      simulated: ["Telegram", "Discord", "Slack"],
    };
    const telegram = activationSteps("Telegram", "d8ca3b8c", "http://localhost:3000", dev);
    expect(telegram[0]).toEqual({
      text: "This is a development server: its Telegram bot is not on Telegram but in the local simulator. The button opens it with the command filled in.",
      link: { href: "/dev/channels?platform=Telegram&text=%2Fstart+d8ca3b8c", label: "Open the Telegram simulator" },
    });
    expect(telegram[1]).toEqual({ text: "Or type this command there:", command: "/start d8ca3b8c" });
    expect(activationSteps("Discord", "d8ca3b8c", "http://localhost:3000", dev)[0].link?.href).toBe(
      "/dev/channels?platform=Discord&text=%2Fstart+code%3Ad8ca3b8c",
    );
    expect(activationSteps("Slack", "d8ca3b8c", "http://localhost:3000", dev)[0].link?.href).toBe(
      "/dev/channels?platform=Slack&text=%2Fagent+start+d8ca3b8c",
    );
    const token = `mv_${"a".repeat(22)}`;
    expect(moveCommandLink("Discord", token, dev)).toEqual({
      href: `/dev/channels?platform=Discord&text=%2Fstart+code%3A${token}`,
      label: "Open the move in the Discord simulator",
    });
    expect(moveCommandLink("Telegram", token, { ...dev, simulated: [], telegramBot: "agent_rental_bot" })).toEqual({
      href: `https://t.me/agent_rental_bot?start=${token}`,
      label: "Open the move in Telegram",
    });
    expect(moveCommandLink("Slack", token, { ...dev, simulated: [] })).toBeNull();
  });

  it("sends Teams and Google Chat renters to find the app by name, then to send the plain start words", () => {
    const none: ChannelLinks = {
      telegramBot: null,
      discordApplicationId: null,
      slackInstallUrl: null,
      slackAppUrl: null,
      whatsappNumber: null,
      simulated: [],
    };
    const teams = activationSteps("Teams", "d8ca3b8c", "https://rent.example", none);
    expect(teams[0]).toEqual({ text: "Find the service's app in Teams (Apps, then search for it by name) and open a chat with it." });
    expect(teams[1]).toEqual({ text: "Then send it this message:", command: "start d8ca3b8c" });
    const google = activationSteps("GoogleChat", "d8ca3b8c", "https://rent.example", none);
    expect(google[0].text).toContain("in Google Chat (New chat, then Find apps)");
    expect(google[1].command).toBe("start d8ca3b8c");
    const dev = activationSteps("GoogleChat", "d8ca3b8c", "http://localhost:3000", { ...none, simulated: ["GoogleChat"] });
    expect(dev[0].link).toEqual({ href: "/dev/channels?platform=GoogleChat&text=start+d8ca3b8c", label: "Open the Google Chat simulator" });
    expect(moveCommandLink("Teams", `mv_${"a".repeat(22)}`, none)).toBeNull();
  });
});
