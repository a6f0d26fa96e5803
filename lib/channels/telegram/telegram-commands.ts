// The bot's command menu in Telegram (setMyCommands): what the chat's "/" list shows.
export const TELEGRAM_COMMANDS = [
  { command: "start", description: "Connect your rental: /start <rental code>" },
  { command: "status", description: "Which agent you are connected to, and the time left" },
  { command: "extend", description: "A link to extend your rental (same code, same chat)" },
  { command: "stop", description: "Disconnect this chat (the rental keeps running)" },
  { command: "help", description: "What this bot does" },
];
