import "server-only";
import { chatExtend } from "@/lib/channels/chat-extend";
import { chatHelp } from "@/lib/channels/chat-help";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { chatStatus } from "@/lib/channels/chat-status";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { startChat } from "@/lib/channels/start-chat";
import { stopChat } from "@/lib/channels/stop-chat";
import { formatCount } from "@/lib/format/number";

// The API's limit on a message (lib/schemas/renter-api.ts).
const MESSAGE_MAX = 10_000;

// A command is the whole message: one of the words, with or without a leading "/", and for start
// one word after it (the code). "Stop the car" or "help me write" are messages to the agent.
const COMMAND = /^\/?(start|status|extend|stop|help)(?:\s+(\S+))?$/i;

/**
 * What the bot answers a text message with, on a platform where commands are typed words
 * (WhatsApp: "start <code>", "status", "extend", "stop", "help"): a command's answer, or the
 * agent's reply to anything else (`thinking` runs while the agent is asked, e.g. "typing…").
 */
export async function answerChatText(user: ChatUser, text: string, thinking: () => void = () => {}): Promise<string> {
  const command = COMMAND.exec(text.trim());
  if (command && (command[1].toLowerCase() === "start" || command[2] === undefined)) {
    switch (command[1].toLowerCase()) {
      case "start":
        return command[2] ? startChat(user, command[2]) : chatHelp(user.platform);
      case "status":
        return chatStatus(user);
      case "extend":
        return chatExtend(user);
      case "stop":
        return stopChat(user);
      default:
        return chatHelp(user.platform);
    }
  }
  if (text.length > MESSAGE_MAX) return `That message is longer than ${formatCount(MESSAGE_MAX)} characters; send it in parts.`;
  thinking();
  return (await relayChatMessage(user, text)).text;
}
