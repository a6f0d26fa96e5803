import { CopyButton } from "@/app/_components/copy-button";
import { botCommand } from "@/lib/channels/bot-commands";
import { channelName } from "@/lib/channels/channel-name";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { type ChannelLinks, moveCommandLink } from "@/lib/checkout/activation";
import { formatDateTime } from "@/lib/format/date-time";
import styles from "./chat-move-command.module.css";

/** A move command as pages receive it (the expiry as an ISO string). */
export type MoveCommand = { platform: ChatPlatform; token: string; expiresAt: string };

// A move command, shown once where the renter asked for it (the rental's page, the checkout):
// what to send from the chat account that should have the rental, and until when it works. On
// Telegram the deep link sends it for them (in development, the simulator on every platform).
export function ChatMoveCommand({ move, links }: { move: MoveCommand; links: ChannelLinks }) {
  const command = botCommand(move.platform, "start", move.token);
  const link = moveCommandLink(move.platform, move.token, links);
  return (
    <div className={styles.move} data-testid="chat-move">
      <p>
        Send this from the {channelName(move.platform)} account that should have the rental{link ? ", or open the link there" : ""}. It
        works once, until <time dateTime={move.expiresAt}>{formatDateTime(new Date(move.expiresAt))}</time>; the account that holds the
        rental now is told and disconnected.
      </p>
      {link && (
        <p>
          <a className="button button-primary" href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </a>
        </p>
      )}
      <code data-testid="move-command">{command}</code>
      <p>
        <CopyButton value={command} label="Copy move command" />
      </p>
    </div>
  );
}
