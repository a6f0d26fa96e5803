import "server-only";
import { type BotCommand, botCommand } from "@/lib/channels/bot-commands";
import { chatExtend } from "@/lib/channels/chat-extend";
import { chatHelp } from "@/lib/channels/chat-help";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";
import { chatStatus } from "@/lib/channels/chat-status";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { startChat } from "@/lib/channels/start-chat";
import { stopChat } from "@/lib/channels/stop-chat";
import { formatCount } from "@/lib/format/number";

// The API's limit on a message (lib/schemas/renter-api.ts).
const MESSAGE_MAX = 10_000;
const COMMANDS: readonly BotCommand[] = ["start", "status", "extend", "stop", "help"];

// `typed`: the command as the person typed it, without its argument ("/status", "/agent foo").
type Command = { typed: string; command: BotCommand | undefined; argument: string };

/**
 * What the bot answers a text message with, on a platform where commands are typed: a command's
 * answer, or the agent's reply to anything else (`thinking` runs while the agent is asked, e.g.
 * "typing…"). The platform's command words (lib/channels/bot-commands.ts) decide the syntax:
 * - words with a "/" ("/status"): every "/word" is a command, "/word@bot" too, the rest its
 *   argument; "/start" alone is the help, an unknown "/x" is answered with the help;
 * - plain words ("status"): a command is the whole message, one of the words (a leading "/"
 *   allowed), for start one word after it; "stop the car" or "help me write" go to the agent;
 * - one slash command with a word after it (Slack's "/agent status"): the platform sends it apart
 *   (answerChatCommand), so every text message goes to the agent.
 */
export async function answerChatText(user: ChatUser, text: string, thinking: () => void = () => {}): Promise<string> {
  const command = parseCommand(user.platform, text.trim());
  if (command) return answerCommand(user, command);
  if (text.length > MESSAGE_MAX) return `That message is longer than ${formatCount(MESSAGE_MAX)} characters; send it in parts.`;
  thinking();
  return (await relayChatMessage(user, text)).text;
}

/**
 * The answer to a command the platform sent apart from messages (Slack's "/agent <word> <rest>"):
 * `word` names it (none: the help), `typed` is how it was typed, for the answer to an unknown one.
 */
export function answerChatCommand(user: ChatUser, word: string, argument: string, typed: string): Promise<string> {
  const command = word === "" ? "help" : COMMANDS.find((known) => known === word.toLowerCase());
  return answerCommand(user, { typed, command, argument });
}

function parseCommand(platform: ChatPlatform, text: string): Command | null {
  const words = COMMANDS.map((command) => [command, botCommand(platform, command).split(" ")[0].toLowerCase()] as const);
  if (new Set(words.map(([, word]) => word)).size === 1) return null;
  const slashed = words.every(([, word]) => word.startsWith("/"));
  const match = slashed ? /^\/(\w+)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(text) : /^\/?(\S+)(?:\s+(\S+))?$/.exec(text);
  if (!match) return null;
  const word = match[1].toLowerCase();
  const command = words.find(([, typed]) => typed.replace(/^\//, "") === word)?.[0];
  if (!slashed && (command === undefined || (command !== "start" && match[2] !== undefined))) return null;
  return { typed: `/${word}`, command, argument: match[2] ?? "" };
}

async function answerCommand(user: ChatUser, { typed, command, argument }: Command): Promise<string> {
  switch (command) {
    case "start":
      // A bare start is how a deep link opens a chat without a code, and how people greet a bot.
      return argument.trim() ? startChat(user, argument) : chatHelp(user.platform);
    case "status":
      return chatStatus(user);
    case "extend":
      return chatExtend(user);
    case "stop":
      return stopChat(user);
    case "help":
      return chatHelp(user.platform);
    default:
      return `Unknown command ${typed}.\n\n${chatHelp(user.platform)}`;
  }
}
