import { ApplicationCommandOptionType, ApplicationIntegrationType, InteractionContextType } from "discord-api-types/v10";

// The bot's slash commands, registered globally (channels:discord:register-commands) and read by
// the route. A user-installable app: in DMs with it, in private channels and in servers.
const everywhere = {
  integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
  contexts: [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
};

export const DISCORD_COMMANDS = [
  {
    name: "start",
    description: "Connect your rental with its code",
    options: [
      { type: ApplicationCommandOptionType.String, name: "code", description: "The rental code shown after payment", required: true },
    ],
    ...everywhere,
  },
  {
    name: "chat",
    description: "Send a message to the agent you rented",
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: "message",
        description: "What to ask the agent",
        required: true,
        max_length: 4000,
      },
    ],
    ...everywhere,
  },
  { name: "status", description: "Which agent you are connected to, and the time left", ...everywhere },
  { name: "extend", description: "A link to extend your rental (same code, same chat)", ...everywhere },
  { name: "stop", description: "Disconnect (the rental keeps running)", ...everywhere },
];
