import type { Channel } from "@/lib/generated/prisma/enums";

/**
 * A channel as people read it (listings, checkout, stats, the rental's pages): "Google Chat" for
 * GoogleChat, the others as they are named. APIs and the owner's webhook payload carry the value.
 */
export function channelName(channel: Channel | (string & {})): string {
  return channel === "GoogleChat" ? "Google Chat" : channel;
}
