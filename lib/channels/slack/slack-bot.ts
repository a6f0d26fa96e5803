import "server-only";
import { SlackAdapter, type SlackEvent, type SlackInstallation } from "@chat-adapter/slack";
import { type AdapterPostableMessage, type ChatInstance, ConsoleLogger, type Message, type RawMessage, type WebhookOptions } from "chat";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";

// The adapter itself, apart from lib/channels/slack/slack-platform.ts so that reading the
// platform's settings never loads the Chat SDK: imported by the first message or notice.

// A Web API call unanswered this long is given up (a notice then is never repeated: it may have arrived).
const CALL_TIMEOUT_MS = 15_000;

// The Web API client tries a failed call again by default, whatever the failure: a message whose
// call timed out or got a 5xx may have been posted, and chat.postMessage takes no idempotency key,
// so the person would read it twice or three times. Only a 429 is tried again: the client has
// waited its Retry-After, and Slack posted nothing. (The client's own signal for it is this message.)
const RETRY_AFTER_RATE_LIMIT_ONLY = {
  retries: 2,
  onFailedAttempt(error: Error) {
    if (!error.message.startsWith("A rate limit was exceeded")) throw error;
  },
};

// What Slack shows the person alone, at once, for /agent; the answer follows in the app's DM.
const COMMAND_ACK = { response_type: "ephemeral", text: "On it: the answer arrives in your direct messages with this app." };

// An event as the bot reads it: with the envelope's event_id (the key a redelivery repeats) and
// team_id (the workspace that installed the app; a chat user is "<team>:<user>").
export type Delivered = SlackEvent & { envelope: { eventId?: string; teamId?: string } };

// An Events API envelope, as the adapter types it.
type Envelope = Parameters<SlackAdapter["processEventPayload"]>[0];

/**
 * `@chat-adapter/slack` where this bot differs from the adapter's defaults:
 * - `/agent` is claimed by its trigger_id before Slack gets its answer (a command sent again is
 *   answered with an empty 200 and runs once), refused (400) without a trigger_id, team or user,
 *   and answered with our ephemeral "On it" (the answer goes to the DM, lib/channels/slack/answer-slack-command.ts);
 * - no Web API call and no state write before a message is read: no auth.test on the first
 *   request, no users.info for the author of a command (it would stand before Slack's answer), and
 *   a message parsed as it came (no users.info / conversations.info for the names it mentions, no
 *   thread-participant list, no 2-second wait for link previews). The bot knows people by their
 *   ids, and its own messages by their bot_id (lib/channels/slack/slack-platform.ts);
 * - replies are posted as literal text (& < > escaped: nothing becomes a link, a mention or a
 *   <!channel> broadcast; the adapter would turn "@name" into a mention), at the DM's top level,
 *   without unfurls; no "typing…" (Slack shows it in assistant threads only).
 */
export class SlackBot extends SlackAdapter {
  /** Runs `fn` with the bot token of workspace `teamId` (a notice, outside any request of theirs). */
  async asWorkspace<T>(teamId: string, fn: () => Promise<T>): Promise<T> {
    if (this.defaultBotTokenProvider) return fn();
    const installation = await findSlackInstallation(teamId);
    if (!installation) throw new Error(`the Slack workspace ${teamId} has not added the app`);
    return this.withBotToken(installation.botToken, fn, { installationId: teamId });
  }

  override async initialize(chat: ChatInstance): Promise<void> {
    this.chat = chat;
  }

  protected override async runSlashCommand(params: URLSearchParams, options?: WebhookOptions): Promise<Response> {
    const triggerId = params.get("trigger_id");
    if (!(triggerId && params.get("team_id") && params.get("user_id"))) return new Response("Not a Slack command", { status: 400 });
    // Slack does not retry commands, but a signed one can be sent again within its 5 minutes;
    // the claim outlives that. Prefixed: the event ids share the platform's key space.
    if (!(await claimDelivery("Slack", `trigger:${triggerId}`))) return new Response(null, { status: 200 });
    return super.runSlashCommand(params, options);
  }

  protected override async handleSlashCommand(params: URLSearchParams, options?: WebhookOptions): Promise<Response> {
    await super.handleSlashCommand(params, options);
    return Response.json(COMMAND_ACK);
  }

  protected override processEventPayload(payload: Envelope, options?: WebhookOptions): void {
    const envelope = { eventId: payload.event_id, teamId: payload.team_id };
    super.processEventPayload({ ...payload, event: payload.event && Object.assign({}, payload.event, { envelope }) }, options);
  }

  protected override async lookupUser(): Promise<null> {
    return null;
  }

  protected override async parseSlackMessage(event: SlackEvent, threadId: string): Promise<Message> {
    return this.parseSlackMessageSync(event, threadId);
  }

  override async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage<unknown>> {
    if (typeof message !== "object" || !("raw" in message)) return super.postMessage(threadId, message);
    const { channel } = this.decodeThreadId(threadId);
    try {
      const text = escapeSlackText(message.raw);
      const sent = await this._client.chat.postMessage(await this.withToken({ channel, text, unfurl_links: false, unfurl_media: false }));
      return { id: sent.ts ?? "", threadId, raw: sent };
    } catch (error) {
      this.handleSlackError(error);
    }
  }

  override async startTyping(): Promise<void> {}
}

// Text as Slack shows it literally: &, < and > escaped.
function escapeSlackText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

// The bot token a workspace stored when it added the app ("Add to Slack"), decrypted here only.
async function findSlackInstallation(teamId: string): Promise<SlackInstallation | null> {
  const installation = await db.slackInstallation.findUnique({ where: { teamId } });
  if (!installation) return null;
  const botToken = decryptSecret(installation.botTokenCipher, `slack-installation:${teamId}`);
  return { botToken, botUserId: installation.botUserId, teamName: installation.teamName };
}

/**
 * The adapter from the platform's options, every one given (none left to the adapter's own
 * environment variables): SLACK_BOT_TOKEN serves one workspace (and the tests); without it each
 * workspace's own token from slack_installations. SLACK_API_URL points every Web API call at a
 * local mock in development and tests.
 */
export function slackBot(options: Record<string, string>): SlackBot {
  return new SlackBot({
    mode: "webhook",
    signingSecret: options.signingSecret,
    botToken: options.botToken || undefined,
    apiUrl: options.apiUrl,
    // Our own table, not the adapter's installations in the Chat SDK's state.
    installationProvider: { getInstallation: findSlackInstallation },
    encryptionKey: "",
    userName: "Agent Rental",
    agentView: false,
    nativeStreaming: false,
    webClientOptions: { retryConfig: RETRY_AFTER_RATE_LIMIT_ONLY, timeout: CALL_TIMEOUT_MS },
    logger: new ConsoleLogger("warn"),
  });
}
