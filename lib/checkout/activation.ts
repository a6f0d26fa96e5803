// How a renter starts using a rental on the channel chosen at checkout.
import { botCommand } from "@/lib/channels/bot-commands";
import { channelName } from "@/lib/channels/channel-name";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { CHECKOUT_INSTRUCTIONS } from "@/lib/channels/checkout-instructions";

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

/** The development simulator of a platform's bot, with the text to send filled in when given. */
export function simulatorUrl(platform: ChatPlatform, text?: string): string {
  return `/dev/channels?${new URLSearchParams(text ? { platform, text } : { platform })}`;
}

/**
 * Where a move command is sent from a link: the platform's own (Telegram's deep link, WhatsApp's chat
 * with the command typed in), or the simulator in development; elsewhere it is typed.
 */
export function moveCommandLink(platform: ChatPlatform, token: string, links: ChannelLinks): ChannelLink | null {
  const name = channelName(platform);
  const command = botCommand(platform, "start", token);
  if (links.simulated.includes(platform)) return { href: simulatorUrl(platform, command), label: `Open the move in the ${name} simulator` };
  const href = CHECKOUT_INSTRUCTIONS[platform].startUrl?.(links, command, token);
  return href ? { href, label: `Open the move in ${name}` } : null;
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
  const instructions = CHECKOUT_INSTRUCTIONS[channel];
  const simulated = links.simulated.includes(channel);
  return [
    simulated ? simulatorStep(channel, start) : instructions.openBot(links, start, code),
    { text: simulated ? "Or type this command there:" : instructions.commandIntro(links), command: start },
    { text: instructions.afterStart },
    { text: "The same code also works as the API key (X-API-Key) of POST /api/v1/chat, whatever the channel." },
  ];
}

// In development the bot is not on its platform but in the local simulator, which the button opens.
function simulatorStep(platform: ChatPlatform, start: string): ActivationStep {
  const name = channelName(platform);
  return {
    text: `This is a development server: its ${name} bot is not on ${name} but in the local simulator. The button opens it with the command filled in.`,
    link: { href: simulatorUrl(platform, start), label: `Open the ${name} simulator` },
  };
}
