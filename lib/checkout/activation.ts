// How a renter starts using a rental on the channel chosen at checkout.
export type CheckoutChannel = "API" | "Telegram" | "Discord" | "Slack";

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
  slackInstallUrl: string | null;
};

/** The Telegram bot's page; with a code, opening it starts the chat with that code. */
export function telegramBotUrl(bot: string, code?: string): string {
  return `https://t.me/${bot}${code ? `?start=${code}` : ""}`;
}

/** Adds the Discord app to the renter's own account (once): it then works in a direct message and in any server. */
export function discordInstallUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&integration_type=1&scope=applications.commands`;
}

export type ActivationStep = { text: string; command?: string; link?: { href: string; label: string } };

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
  const api = {
    text: "The same code also works as the API key (X-API-Key) of POST /api/v1/chat, whatever the channel.",
  };
  if (channel === "Telegram") {
    const bot = links.telegramBot;
    return [
      bot
        ? {
            text: "Open the bot in Telegram: the button starts the chat with your code.",
            link: { href: telegramBotUrl(bot, code), label: "Open in Telegram" },
          }
        : { text: "Open the service's bot in Telegram." },
      { text: `Or send this message to ${bot ? `@${bot}` : "the bot"}:`, command: `/start ${code}` },
      { text: "Then send any message to talk to the agent; /status shows the time left, /stop disconnects." },
      api,
    ];
  }
  if (channel === "Discord") {
    const id = links.discordApplicationId;
    return [
      id
        ? {
            text: "Add the app to your Discord account (once): it then works in a direct message with it and in any server.",
            link: {
              href: discordInstallUrl(id),
              label: "Add to Discord",
            },
          }
        : { text: "Add the service's app to your Discord account." },
      { text: "Then run this command in Discord:", command: `/start code:${code}` },
      { text: "Talk to the agent with /chat message:<your message>; /status shows the time left, /stop disconnects." },
      api,
    ];
  }
  return [
    links.slackInstallUrl
      ? {
          text: "Add the app to your Slack workspace (once per workspace).",
          link: { href: links.slackInstallUrl, label: "Add to Slack" },
        }
      : { text: "Open the service's app in your Slack workspace." },
    { text: "Then run this command in Slack:", command: `/agent start ${code}` },
    {
      text: "Send the app a direct message to talk to the agent; /agent status shows the time left, /agent stop disconnects.",
    },
    api,
  ];
}
