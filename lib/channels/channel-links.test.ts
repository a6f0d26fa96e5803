// Where the checkout, the rental's page and the renters' docs send a renter for each bot: the
// platform's own link where the bot exists there, the development simulator where only the local
// platform mock answers (npm run dev), never a link to a bot that does not exist.
import { afterEach, describe, expect, it } from "vitest";
import { channelLinks } from "@/lib/channels/channel-links";
import { env } from "@/lib/env";

const saved = { ...env };
afterEach(() => {
  Object.assign(env, saved);
});

const MOCK = "http://127.0.0.1:4555";
const telegram = { TELEGRAM_BOT_TOKEN: "1000:t", TELEGRAM_WEBHOOK_SECRET: "s".repeat(24), TELEGRAM_BOT_USERNAME: "agent_rental_bot" };
const slackOneWorkspace = {
  SLACK_SIGNING_SECRET: "secret",
  SLACK_BOT_TOKEN: "xoxb-1",
  SLACK_CLIENT_ID: undefined,
  SLACK_CLIENT_SECRET: undefined,
};

describe("channelLinks", () => {
  it("links to the real bots: Telegram's deep link, Slack's app in its one workspace or Add to Slack", () => {
    Object.assign(env, telegram, slackOneWorkspace, {
      TELEGRAM_API_URL: "https://api.telegram.org",
      SLACK_API_URL: "https://slack.com/api/",
      SLACK_APP_ID: "A0123ABCDEF",
      DEV_PLATFORM_MOCK_URL: undefined,
    });
    expect(channelLinks()).toMatchObject({
      telegramBot: "agent_rental_bot",
      slackInstallUrl: null,
      slackAppUrl: "https://slack.com/app_redirect?app=A0123ABCDEF",
      simulated: [],
    });
    Object.assign(env, { SLACK_CLIENT_ID: "1.2", SLACK_CLIENT_SECRET: "c", APP_URL: "https://rent.example/" });
    expect(channelLinks().slackInstallUrl).toBe("https://rent.example/api/channels/slack/install");
  });

  it("in development, sends every bot the platform mock answers to the simulator, and names no bot there", () => {
    Object.assign(env, telegram, slackOneWorkspace, {
      DEV_PLATFORM_MOCK_URL: MOCK,
      TELEGRAM_API_URL: `${MOCK}/telegram`,
      SLACK_API_URL: `${MOCK}/slack/`,
      SLACK_APP_ID: "A0123ABCDEF",
    });
    const links = channelLinks();
    expect(links.simulated).toEqual(expect.arrayContaining(["Telegram", "Slack"]));
    expect(links).toMatchObject({ telegramBot: null, slackInstallUrl: null, slackAppUrl: null });
  });

  it("in development, keeps a platform's real bot when the developer set its own settings", () => {
    Object.assign(env, telegram, { DEV_PLATFORM_MOCK_URL: MOCK, TELEGRAM_API_URL: "https://api.telegram.org" });
    const links = channelLinks();
    expect(links.simulated).not.toContain("Telegram");
    expect(links.telegramBot).toBe("agent_rental_bot");
  });
});
