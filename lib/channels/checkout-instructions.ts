// How a renter reaches each platform's bot after paying, beside its command words
// (lib/channels/bot-commands.ts): the checkout's steps (lib/checkout/activation.ts) and a chat
// move's link ask this and name no platform. No server code: the checkout builds them in the browser.
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import type { ActivationStep, ChannelLinks } from "@/lib/checkout/activation";

type CheckoutInstructions = {
  /** The first step: where the bot is, with the link that leads there when this deployment has one. */
  openBot(links: ChannelLinks, start: string, code: string): ActivationStep;
  /** The words before the start command. */
  commandIntro(links: ChannelLinks): string;
  /** How the renter goes on once started. */
  afterStart: string;
  /** A link that sends the start command `start` (with `code`) from the renter's own account, where the platform has one. */
  startUrl?(links: ChannelLinks, start: string, code: string): string | null;
};

const PLAIN_WORDS = "Then send any message to talk to the agent; status shows the time left, stop disconnects.";

export const CHECKOUT_INSTRUCTIONS: Record<ChatPlatform, CheckoutInstructions> = {
  Telegram: {
    openBot: (links, _start, code) =>
      links.telegramBot
        ? {
            text: "Open the bot in Telegram: the button starts the chat with your code.",
            link: { href: telegramBotUrl(links.telegramBot, code), label: "Open in Telegram" },
          }
        : { text: "Open the service's bot in Telegram." },
    commandIntro: (links) => `Or send this message to ${links.telegramBot ? `@${links.telegramBot}` : "the bot"}:`,
    afterStart: "Then send any message to talk to the agent; /status shows the time left, /stop disconnects.",
    startUrl: (links, _start, code) => (links.telegramBot ? telegramBotUrl(links.telegramBot, code) : null),
  },
  Discord: {
    openBot: (links) =>
      links.discordApplicationId
        ? {
            text: "Add the app to your Discord account (once): it then works in a direct message with it and in any server.",
            link: { href: discordInstallUrl(links.discordApplicationId), label: "Add to Discord" },
          }
        : { text: "Add the service's app to your Discord account." },
    commandIntro: () => "Then run this command in Discord:",
    afterStart: "Talk to the agent with /chat message:<your message>; /status shows the time left, /stop disconnects.",
  },
  Slack: {
    openBot: (links) => {
      if (links.slackInstallUrl)
        return {
          text: "Add the app to your Slack workspace (once per workspace).",
          link: { href: links.slackInstallUrl, label: "Add to Slack" },
        };
      if (links.slackAppUrl)
        return {
          text: "Open the app in the service's Slack workspace.",
          link: { href: links.slackAppUrl, label: "Open the app in Slack" },
        };
      return { text: "Open the service's app in your Slack workspace." };
    },
    commandIntro: () => "Then run this command in Slack:",
    afterStart: "Send the app a direct message to talk to the agent; /agent status shows the time left, /agent stop disconnects.",
  },
  WhatsApp: {
    openBot: (links, start) =>
      links.whatsappNumber
        ? {
            text: "Open the chat in WhatsApp: the button types the start message with your code; send it.",
            link: { href: whatsappChatUrl(links.whatsappNumber, start), label: "Open in WhatsApp" },
          }
        : { text: "Open a chat with the service's WhatsApp number." },
    commandIntro: (links) => `Or send this message to ${links.whatsappNumber ? `+${links.whatsappNumber}` : "the number"}:`,
    afterStart: PLAIN_WORDS,
    startUrl: (links, start) => (links.whatsappNumber ? whatsappChatUrl(links.whatsappNumber, start) : null),
  },
  // Teams and Google Chat have no link that opens a chat with an app everywhere: it is found by name.
  Teams: {
    openBot: () => ({ text: "Find the service's app in Teams (Apps, then search for it by name) and open a chat with it." }),
    commandIntro: () => "Then send it this message:",
    afterStart: PLAIN_WORDS,
  },
  GoogleChat: {
    openBot: () => ({ text: "Find the service's app in Google Chat (New chat, then Find apps) and open a direct message with it." }),
    commandIntro: () => "Then send it this message:",
    afterStart: PLAIN_WORDS,
  },
};

/** The Telegram bot's page; with a code, opening it starts the chat with that code. */
export function telegramBotUrl(bot: string, code?: string): string {
  return `https://t.me/${bot}${code ? `?start=${code}` : ""}`;
}

/** Adds the Discord app to the renter's own account (once): it then works in a direct message and in any server. */
export function discordInstallUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&integration_type=1&scope=applications.commands`;
}

/** The app's direct messages in the renter's Slack workspace (the app is found by its id, A…). */
export function slackAppUrl(appId: string): string {
  return `https://slack.com/app_redirect?app=${encodeURIComponent(appId)}`;
}

/** A chat with the WhatsApp number, the message typed in for the renter to send. */
export function whatsappChatUrl(number: string, text?: string): string {
  return `https://wa.me/${number}${text ? `?${new URLSearchParams({ text })}` : ""}`;
}
