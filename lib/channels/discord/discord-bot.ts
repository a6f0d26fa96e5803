import "server-only";
import { DiscordAdapter, DiscordInteractionResponseFlag } from "@chat-adapter/discord";
import { type AdapterPostableMessage, ConsoleLogger } from "chat";
import { verifyDiscordRequest } from "@/lib/channels/discord/verify-discord-request";

// The adapter itself, apart from lib/channels/discord/discord-platform.ts so that reading the
// platform's settings never loads the Chat SDK (nor discord.js, which the adapter's package
// imports): imported by the first interaction, notice or command registration.

// A REST call unanswered this long is given up (a notice then is never repeated: it may have arrived).
const CALL_TIMEOUT_MS = 15_000;
// Nothing a reply says pings anyone: no @everyone, @here, users or roles.
const NO_MENTIONS = { parse: [] };

/**
 * `@chat-adapter/discord` where this bot differs from the adapter: every REST call goes to
 * DISCORD_API_URL within 15 s (the adapter sends interaction replies to discord.com whatever its
 * apiUrl, with no time limit) and a refusal says "Discord answered <call> with HTTP <status>"
 * (lib/channels/judge-notice-failure.ts judges a notice's failure by it); a reply is sent as
 * written, "@name" not made a mention, and pings no one; no Gateway events (this bot takes signed
 * interactions only); no files.
 */
class DiscordBot extends DiscordAdapter {
  /** A REST call the adapter has no method for (the operator's command registration). */
  async call(method: string, path: string, body: unknown): Promise<unknown> {
    return (await this.discordFetch(path, method, body)).json();
  }

  protected override discordFetch(path: string, method: string, body?: unknown): Promise<Response> {
    return this.rest(path, method, body, true);
  }

  // An interaction's webhook (its replies) is authorised by the token in its path. The edit of the
  // "thinking…" message carries no flags: it is ephemeral from its deferral, and Discord lets an
  // edit change only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 (the adapter sends the deferral's flags).
  protected override discordInteractionFetch(path: string, method: string, body?: unknown): Promise<Response> {
    if (method === "PATCH" && body && typeof body === "object" && "flags" in body) {
      const { flags: _deferred, ...edit } = body as Record<string, unknown>;
      return this.rest(path, method, edit, false);
    }
    return this.rest(path, method, body, false);
  }

  private async rest(path: string, method: string, body: unknown, asBot: boolean): Promise<Response> {
    const headers: Record<string, string> = { "User-Agent": "AgentRentalService (https://github.com, 1.0)" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (asBot) headers.Authorization = `Bot ${await this.resolveBotToken()}`;
    const res = await fetch(`${this.apiBaseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    if (!res.ok) {
      // An interaction's token is a credential: never in a log.
      const call = path.replace(/\?.*$/, "").replace(/\/webhooks\/[^/]+\/[^/]+/, "/webhooks/…");
      throw new Error(`Discord answered ${method} ${call} with HTTP ${res.status}`);
    }
    return res;
  }

  protected override buildMessagePayload(message: AdapterPostableMessage, options?: { clearContentForCard?: boolean }) {
    const built = super.buildMessagePayload(message, options);
    const raw = typeof message === "object" && "raw" in message ? message.raw : undefined;
    return { ...built, payload: { ...built.payload, ...(raw === undefined ? {} : { content: raw }), allowed_mentions: NO_MENTIONS } };
  }

  protected override async handleForwardedGatewayEvent(): Promise<Response> {
    return new Response("This bot takes signed interactions only", { status: 401 });
  }

  protected override postMessageWithFiles(): never {
    throw new Error("This bot sends no files to Discord");
  }

  protected override discordInteractionFetchWithFiles(): never {
    throw new Error("This bot sends no files to Discord");
  }
}

/**
 * The adapter from lib/env.ts's settings (none left to its own environment variables). Requests are
 * verified by our check (verify-discord-request.ts: the signature and the signed time's window);
 * a slash command is deferred as "thinking…" that only its sender sees, and so are its answers.
 */
export function discordBot(options: Record<string, string>): DiscordBot {
  return new DiscordBot({
    applicationId: options.applicationId,
    botToken: options.botToken,
    apiUrl: options.apiUrl,
    webhookVerifier: (request, body) => verifyDiscordRequest(request.headers, Buffer.from(body), new Date()),
    interactionFlags: () => DiscordInteractionResponseFlag.Ephemeral,
    mentionRoleIds: [],
    respondToChannelIds: [],
    userName: "Agent Rental",
    logger: new ConsoleLogger("warn"),
  });
}
