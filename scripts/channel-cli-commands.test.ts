// The bots' setup commands as an operator runs them (a process of its own), against the platform
// mock: the exact calls each platform receives.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "./chat-platform-mock";
import { tsNodeArgs } from "./node-args";

const run = promisify(execFile);
let mock: ChatPlatformMock;
beforeAll(async () => {
  mock = await startChatPlatformMock();
});
afterAll(() => mock.close());

async function cli(args: string[], env: Record<string, string>) {
  const { stdout } = await run(process.execPath, tsNodeArgs("scripts/cli.ts", args, { reactServer: true }), {
    env: { ...process.env, APP_URL: "https://rent.example.com", ...env },
  });
  return JSON.parse(stdout);
}

describe("channel setup commands", () => {
  it("channels:telegram:set-webhook sets the webhook with its secret and only message updates, and the command menu", async () => {
    const out = await cli(["channels:telegram:set-webhook"], {
      TELEGRAM_BOT_TOKEN: "4242:cli-test-token",
      TELEGRAM_WEBHOOK_SECRET: "cli-test-secret-0123456789",
      TELEGRAM_API_URL: `${mock.url}/telegram`,
    });
    expect(out.webhook).toBe("https://rent.example.com/api/channels/telegram");
    const calls = mock.calls().filter((c) => c.platform === "Telegram");
    expect(calls.map((c) => c.method)).toEqual(["setWebhook", "setMyCommands"]);
    expect(calls.every((c) => c.auth === "4242:cli-test-token")).toBe(true);
    expect(calls[0].body).toMatchObject({
      url: "https://rent.example.com/api/channels/telegram",
      secret_token: "cli-test-secret-0123456789",
      allowed_updates: ["message"],
    });
    expect((calls[1].body.commands as { command: string }[]).map((c) => c.command)).toEqual(["start", "status", "extend", "stop", "help"]);
  });

  it("channels:slack:manifest prints the app manifest for this APP_URL: the command, the events, the Messages tab, the scopes", async () => {
    const manifest = await cli(["channels:slack:manifest"], {});
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({ command: "/agent", url: "https://rent.example.com/api/channels/slack" }),
    ]);
    expect(manifest.settings.event_subscriptions).toEqual({
      request_url: "https://rent.example.com/api/channels/slack",
      bot_events: ["message.im"],
    });
    expect(manifest.features.app_home).toMatchObject({ messages_tab_enabled: true, messages_tab_read_only_enabled: false });
    expect(manifest.oauth_config.scopes.bot).toEqual(["commands", "chat:write", "im:history", "im:write"]);
    expect(manifest.oauth_config.redirect_urls).toEqual(["https://rent.example.com/api/channels/slack/oauth"]);
  });

  it("channels:discord:register-commands puts the five commands, user-installable, with the bot token", async () => {
    const out = await cli(["channels:discord:register-commands"], {
      DISCORD_APPLICATION_ID: "100000000000000077",
      DISCORD_PUBLIC_KEY: "a".repeat(64),
      DISCORD_BOT_TOKEN: "cli-discord-token",
      DISCORD_API_URL: `${mock.url}/discord`,
    });
    expect(out).toEqual({ registered: ["/start", "/chat", "/status", "/extend", "/stop"] });
    const put = mock.calls().find((c) => c.method === "PUT /applications/100000000000000077/commands");
    expect(put?.auth).toBe("Bot cli-discord-token");
    const commands = put?.body as unknown as {
      name: string;
      integration_types: number[];
      contexts: number[];
      options?: { name: string }[];
    }[];
    expect(commands.map((c) => [c.name, c.options?.map((o) => o.name) ?? []])).toEqual([
      ["start", ["code"]],
      ["chat", ["message"]],
      ["status", []],
      ["extend", []],
      ["stop", []],
    ]);
    for (const c of commands)
      expect([c.integration_types, c.contexts]).toEqual([
        [0, 1],
        [0, 1, 2],
      ]);
  });
});
