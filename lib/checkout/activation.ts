// How a renter starts using a rental on the channel chosen at checkout.
import { botCommand } from "@/lib/channels/bot-commands";
import { channelName } from "@/lib/channels/channel-name";
import type { ChatPlatform } from "@/lib/channels/chat-platform";

export type CheckoutChannel = "API" | ChatPlatform;

// A ready-to-paste request to the renter API; the code is the API key.
export function chatCurl(origin: string, code: string, message = "Hello! What can you do?"): string {
  const body = JSON.stringify({ message }).replace(/'/g, "'\\''");
  return [
    `curl -X POST '${origin.replace(/\/+$/, "")}/api/v1/chat' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'X-API-Key: ${code}' \\`,
    `  -d '${body}'`,
  ].join("\n");
}

// The status request, ready to paste: it does not call the agent, so it is cheap to repeat.
export function statusCurl(origin: string, code: string): string {
  return `curl '${origin.replace(/\/+$/, "")}/api/v1/status' -H 'X-API-Key: ${code}'`;
}

/** Where each bot is found, from the service's settings (lib/channels/channel-links.ts). */
export type ChannelLinks = {
  telegramBot: string | null;
  discordApplicationId: string | null;
  /** "Add to Slack": renters add the app to their own workspace. */
  slackInstallUrl: string | null;
  /** One workspace: the app's direct messages in it (Slack's app_redirect). */
  slackAppUrl: string | null;
  /** The WhatsApp business number renters message (international format, digits only). */
  whatsappNumber: string | null;
  /**
   * Development (npm run dev): the platforms only the local platform mock answers. Their bots do
   * not exist on the platform, so every link leads to the simulator at /dev/channels instead.
   */
  simulated: ChatPlatform[];
};

export type ChannelLink = { href: string; label: string };

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

/** The development simulator of a platform's bot, with the text to send filled in when given. */
export function simulatorUrl(platform: ChatPlatform, text?: string): string {
  return `/dev/channels?${new URLSearchParams(text ? { platform, text } : { platform })}`;
}

/**
 * Where a move command is sent from a link: Telegram's deep link, WhatsApp's chat with the command
 * typed in, or the simulator in development; Discord and Slack have no such link (it is typed).
 */
export function moveCommandLink(platform: ChatPlatform, token: string, links: ChannelLinks): ChannelLink | null {
  if (links.simulated.includes(platform))
    return {
      href: simulatorUrl(platform, botCommand(platform, "start", token)),
      label: `Open the move in the ${channelName(platform)} simulator`,
    };
  if (platform === "Telegram" && links.telegramBot)
    return { href: telegramBotUrl(links.telegramBot, token), label: "Open the move in Telegram" };
  if (platform === "WhatsApp" && links.whatsappNumber)
    return { href: whatsappChatUrl(links.whatsappNumber, botCommand(platform, "start", token)), label: "Open the move in WhatsApp" };
  return null;
}

export type ActivationStep = { text: string; command?: string; link?: ChannelLink };

export function activationSteps(channel: CheckoutChannel, code: string, origin: string, links: ChannelLinks): ActivationStep[] {
  if (channel === "API") {
    return [
      {
        text: "Send messages to the agent over HTTPS with your rental code as the API key (X-API-Key header, or Authorization: Bearer):",
        command: chatCurl(origin, code),
      },
      {
        text: "Check your rental's status and time left at any time:",
        command: statusCurl(origin, code),
      },
    ];
  }
  const start = botCommand(channel, "start", code);
  const then = {
    Telegram: "Then send any message to talk to the agent; /status shows the time left, /stop disconnects.",
    Discord: "Talk to the agent with /chat message:<your message>; /status shows the time left, /stop disconnects.",
    Slack: "Send the app a direct message to talk to the agent; /agent status shows the time left, /agent stop disconnects.",
    WhatsApp: "Then send any message to talk to the agent; status shows the time left, stop disconnects.",
    Teams: "Then send any message to talk to the agent; status shows the time left, stop disconnects.",
    GoogleChat: "Then send any message to talk to the agent; status shows the time left, stop disconnects.",
  }[channel];
  return [
    openBotStep(channel, start, code, links),
    { text: commandIntro(channel, links), command: start },
    { text: then },
    { text: "The same code also works as the API key (X-API-Key) of POST /api/v1/chat, whatever the channel." },
  ];
}

// The first step on a chat platform: where its bot is, with the link that leads there.
function openBotStep(platform: ChatPlatform, start: string, code: string, links: ChannelLinks): ActivationStep {
  if (links.simulated.includes(platform)) {
    const name = channelName(platform);
    return {
      text: `This is a development server: its ${name} bot is not on ${name} but in the local simulator. The button opens it with the command filled in.`,
      link: { href: simulatorUrl(platform, start), label: `Open the ${name} simulator` },
    };
  }
  if (platform === "Telegram") {
    return links.telegramBot
      ? {
          text: "Open the bot in Telegram: the button starts the chat with your code.",
          link: { href: telegramBotUrl(links.telegramBot, code), label: "Open in Telegram" },
        }
      : { text: "Open the service's bot in Telegram." };
  }
  if (platform === "WhatsApp") {
    return links.whatsappNumber
      ? {
          text: "Open the chat in WhatsApp: the button types the start message with your code; send it.",
          link: { href: whatsappChatUrl(links.whatsappNumber, start), label: "Open in WhatsApp" },
        }
      : { text: "Open a chat with the service's WhatsApp number." };
  }
  // Teams and Google Chat have no link that opens a chat with an app everywhere: it is found by name.
  if (platform === "Teams") return { text: "Find the service's app in Teams (Apps, then search for it by name) and open a chat with it." };
  if (platform === "GoogleChat")
    return { text: "Find the service's app in Google Chat (New chat, then Find apps) and open a direct message with it." };
  if (platform === "Discord") {
    return links.discordApplicationId
      ? {
          text: "Add the app to your Discord account (once): it then works in a direct message with it and in any server.",
          link: { href: discordInstallUrl(links.discordApplicationId), label: "Add to Discord" },
        }
      : { text: "Add the service's app to your Discord account." };
  }
  if (links.slackInstallUrl)
    return {
      text: "Add the app to your Slack workspace (once per workspace).",
      link: { href: links.slackInstallUrl, label: "Add to Slack" },
    };
  if (links.slackAppUrl)
    return { text: "Open the app in the service's Slack workspace.", link: { href: links.slackAppUrl, label: "Open the app in Slack" } };
  return { text: "Open the service's app in your Slack workspace." };
}

function commandIntro(platform: ChatPlatform, links: ChannelLinks): string {
  if (links.simulated.includes(platform)) return "Or type this command there:";
  if (platform === "Telegram") return `Or send this message to ${links.telegramBot ? `@${links.telegramBot}` : "the bot"}:`;
  if (platform === "WhatsApp") return `Or send this message to ${links.whatsappNumber ? `+${links.whatsappNumber}` : "the number"}:`;
  if (platform === "Teams" || platform === "GoogleChat") return "Then send it this message:";
  return `Then run this command in ${platform}:`;
}
