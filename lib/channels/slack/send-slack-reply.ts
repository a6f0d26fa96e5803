import "server-only";
import { FULL_REPLY_POINTER, splitReply } from "@/lib/channels/reply-text";
import { slackClient } from "@/lib/channels/slack/slack-client";

// Slack takes up to 40,000 characters a message but shows long ones folded; parts of 3,500 read
// well, and a reply longer than three of them points to the API.
const SLACK_PART = 3_500;
const MAX_PARTS = 3;

/**
 * Text as Slack shows it literally: &, < and > escaped, so nothing in an agent's reply becomes a
 * link, a user mention or a <!channel> / <!here> / <!everyone> broadcast.
 */
export function escapeSlackText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Posts text to a Slack channel (the chat user's DM with the app), in parts when long. */
export async function sendSlackReply(teamId: string, channel: string, text: string): Promise<void> {
  const client = await slackClient(teamId);
  for (const part of splitReply(escapeSlackText(text), SLACK_PART, MAX_PARTS, FULL_REPLY_POINTER)) {
    await client.chat.postMessage({ channel, text: part, unfurl_links: false, unfurl_media: false });
  }
}

/** The DM channel between the app and a user (opened if it was not). */
export async function openSlackDm(teamId: string, userId: string): Promise<string> {
  const client = await slackClient(teamId);
  const opened = await client.conversations.open({ users: userId });
  if (!opened.channel?.id) throw new Error("Slack did not open a direct message channel");
  return opened.channel.id;
}
