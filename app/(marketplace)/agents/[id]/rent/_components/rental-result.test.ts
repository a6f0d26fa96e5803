// Server render of the checkout and of its result: the accessible names and test ids the browser
// tests rely on. (The wallet steps themselves: lib/checkout/run-checkout.test.ts.)
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { RentalResult } from "./rental-result";

const links: ChannelLinks = {
  telegramBot: "agent_rental_bot",
  discordApplicationId: "100000000000000001",
  slackInstallUrl: null,
  slackAppUrl: null,
  whatsappNumber: null,
  simulated: [],
};

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("checkout markup", () => {
  it("shows the code, a Copy code button, the countdown and a ready curl", () => {
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    const html = renderToString(
      createElement(RentalResult, {
        result: {
          id: "d8ca3b8c-7fb3-48dd-b5bd-56e9527a457c",
          code: "d8ca3b8c",
          status: "active",
          starts_at: new Date().toISOString(),
          ends_at: endsAt,
          txHash: `0x${"ab".repeat(32)}`,
        },
        channel: "API",
        agentName: "Echo Agent",
        links,
        signedIn: true,
      }),
    );
    expect(html).toMatch(/data-testid="rental-code"[^>]*>d8ca3b8c</);
    expect(text(html)).toContain("Copy code");
    expect(text(html)).toMatch(/Time remaining (1 hour 0 minutes|59 minutes \d+ seconds)/);
    expect(text(html)).toContain("X-API-Key: d8ca3b8c");
    expect(html).toMatch(/<h2 id="result-heading" tabindex="-1"/);
  });

  it("gives each chat channel its bot's link and the exact command to start", () => {
    const render = (channel: "Telegram" | "Discord" | "Slack", withLinks = links) =>
      renderToString(
        createElement(RentalResult, {
          result: {
            id: "x",
            code: "d8ca3b8c",
            status: "active",
            starts_at: "",
            ends_at: new Date(Date.now() + 86_400_000).toISOString(),
            txHash: `0x${"ab".repeat(32)}`,
          },
          channel,
          agentName: "Echo Agent",
          links: withLinks,
          signedIn: true,
        }),
      );
    const telegram = render("Telegram");
    expect(telegram).toContain('href="https://t.me/agent_rental_bot?start=d8ca3b8c"');
    expect(text(telegram)).toContain("Open in Telegram");
    expect(text(telegram)).toContain("/start d8ca3b8c");
    const discord = render("Discord");
    expect(discord).toContain(
      "https://discord.com/oauth2/authorize?client_id=100000000000000001&amp;integration_type=1&amp;scope=applications.commands",
    );
    expect(text(discord)).toContain("/start code:d8ca3b8c");
    const slack = render("Slack", { ...links, slackInstallUrl: "https://rent.example/api/channels/slack/install" });
    expect(slack).toContain('href="https://rent.example/api/channels/slack/install"');
    expect(text(slack)).toContain("Add to Slack");
    expect(text(slack)).toContain("/agent start d8ca3b8c");
    expect(text(slack)).toContain("Copy message");
  });

  it("offers a chat rental's move to another chat account to the browser that paid, and the dashboard's way to any other", () => {
    const render = (channel: "API" | "Telegram", claimSecret?: string) =>
      text(
        renderToString(
          createElement(RentalResult, {
            result: {
              id: "d8ca3b8c-7fb3-48dd-b5bd-56e9527a457c",
              code: "d8ca3b8c",
              status: "active",
              starts_at: "",
              ends_at: new Date(Date.now() + 86_400_000).toISOString(),
              txHash: `0x${"ab".repeat(32)}`,
              claimSecret,
            },
            channel,
            agentName: "Echo Agent",
            links,
            signedIn: true,
          }),
        ),
      );
    const paid = render("Telegram", "c".repeat(43));
    expect(paid).toContain("Another chat account");
    expect(paid).toMatch(
      /The code connects the first chat account that sends it, and after that only that one\..*Move to another chat account/,
    );
    expect(render("Telegram")).toContain(
      "To move it to another chat account, sign in with the wallet that paid and press Move to another chat account on the rental's page under My rentals.",
    );
    expect(render("API", "c".repeat(43))).not.toContain("Move to another chat account");
  });

  it("links to the rental's page and its playground, through the sign-in (which comes back) when the browser is not signed in", () => {
    const render = (signedIn: boolean) =>
      renderToString(
        createElement(RentalResult, {
          result: {
            id: "d8ca3b8c-7fb3-48dd-b5bd-56e9527a457c",
            code: "d8ca3b8c",
            status: "active",
            starts_at: "",
            ends_at: new Date(Date.now() + 86_400_000).toISOString(),
            txHash: `0x${"ab".repeat(32)}`,
          },
          channel: "API",
          agentName: "Echo Agent",
          links,
          signedIn,
        }),
      );
    const signedIn = render(true);
    expect(signedIn).toMatch(/href="\/dashboard\/rentals\/d8ca3b8c-7fb3-48dd-b5bd-56e9527a457c#playground"[^>]*>Open the playground</);
    expect(signedIn).toMatch(/href="\/dashboard\/rentals\/d8ca3b8c-7fb3-48dd-b5bd-56e9527a457c"[^>]*>Open your rental&#x27;s page</);
    const visitor = render(false);
    expect(visitor).toContain('href="/sign-in?next=%2Fdashboard%2Frentals%2Fd8ca3b8c-7fb3-48dd-b5bd-56e9527a457c%23playground"');
    expect(visitor).toContain('href="/sign-in?next=%2Fdashboard%2Frentals%2Fd8ca3b8c-7fb3-48dd-b5bd-56e9527a457c"');
    expect(text(visitor)).toContain("Sign in there with the wallet you paid with: the rental belongs to that wallet's account.");
  });
});
