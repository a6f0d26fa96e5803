// Every command the checkout and the rental's page print, typed into the /dev/channels simulator
// as they print it: the simulator's request (chatUserRequest) goes through each bot's real route
// and verification, and the bot accepts it. Issue 23: Discord's `/start code:<code>` was once
// refused as "not a rental code".
import { generateKeyPairSync, randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { settleAfter } from "@/test/after-at-once";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";
import { makeRenterAccount } from "@/test/renter-fixtures";

vi.mock("next/server", async (importOriginal) =>
  (await import("@/test/after-at-once")).withAfterAtOnce(await importOriginal<typeof import("next/server")>()),
);

const { env } = await import("@/lib/env");
const { db } = await import("@/lib/db");
const { chatUserRequest } = await import("@/lib/channels/dev/send-as-chat-user");
const { listBotMessages } = await import("@/lib/channels/dev/list-bot-messages");
const { activationSteps } = await import("@/lib/checkout/activation");
const { botCommand } = await import("@/lib/channels/bot-commands");
const { createChatMove } = await import("@/lib/channels/create-chat-move");
const routes = {
  Telegram: (await import("@/app/api/channels/telegram/route")).POST,
  Discord: (await import("@/app/api/channels/discord/route")).POST,
  Slack: (await import("@/app/api/channels/slack/route")).POST,
  WhatsApp: (await import("@/app/api/channels/whatsapp/route")).POST,
  Teams: (await import("@/app/api/channels/teams/route")).POST,
  GoogleChat: (await import("@/app/api/channels/gchat/route")).POST,
};

type Platform = keyof typeof routes;
const BASE = "http://localhost/api/channels";
const LINKS = {
  telegramBot: null,
  discordApplicationId: null,
  slackInstallUrl: null,
  slackAppUrl: null,
  whatsappNumber: null,
  simulated: [],
};
let mock: ChatPlatformMock;
let hook: Awaited<ReturnType<typeof startWebhook>>;
const token = randomBytes(24).toString("base64url");

beforeAll(async () => {
  mock = await startChatPlatformMock();
  // The settings `npm run dev` makes up (scripts/dev-channels.ts), pointed at this mock.
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  Object.assign(env, {
    DEV_PLATFORM_MOCK_URL: mock.url,
    TELEGRAM_API_URL: `${mock.url}/telegram`,
    DISCORD_APPLICATION_ID: "100000000000000001",
    DISCORD_PUBLIC_KEY: publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex"),
    DISCORD_BOT_TOKEN: "dev-discord-bot-token",
    DISCORD_API_URL: `${mock.url}/discord`,
    DEV_DISCORD_PRIVATE_KEY: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    SLACK_SIGNING_SECRET: randomBytes(24).toString("hex"),
    SLACK_BOT_TOKEN: "xoxb-dev-slack-token",
    SLACK_API_URL: `${mock.url}/slack/`,
    WHATSAPP_ACCESS_TOKEN: "dev-whatsapp-access-token",
    WHATSAPP_APP_SECRET: randomBytes(24).toString("hex"),
    WHATSAPP_PHONE_NUMBER_ID: "100000000000001",
    WHATSAPP_VERIFY_TOKEN: randomBytes(16).toString("base64url"),
    WHATSAPP_PHONE_NUMBER: "15550000000",
    WHATSAPP_API_URL: `${mock.url}/whatsapp`,
    DEV_CHAT_SIGNING_KEY: mock.signingKey(),
    TEAMS_APP_ID: "00000000-0000-4000-8000-00000000b07a",
    TEAMS_APP_PASSWORD: "dev-teams-password",
    TEAMS_LOGIN_URL: `${mock.url}/teams/login`,
    TEAMS_OPENID_METADATA_URL: `${mock.url}/teams/v1/.well-known/openidconfiguration`,
    GOOGLE_CHAT_PROJECT_NUMBER: "100000000001",
    GOOGLE_CHAT_CREDENTIALS: {
      client_email: "agent-rental-dev@dev-project.iam.gserviceaccount.com",
      private_key: generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      token_uri: `${mock.url}/google/token`,
    },
    GOOGLE_CHAT_API_URL: mock.url,
  });
  hook = await startWebhook((req, res) => {
    const { message } = JSON.parse(req.body);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ response: `Echo: ${message}` }));
  });
});
afterAll(async () => {
  await Promise.all([mock.close(), hook.close()]);
});

/** Types `text` as the simulator's user `userId` and returns what the bot answered. */
async function typed(platform: Platform, userId: string, text: string): Promise<string> {
  const since = mock.calls().length;
  const res = await routes[platform](chatUserRequest(platform, BASE, userId, text));
  expect(res.status, `${platform} ${text}`).toBe(200);
  await settleAfter();
  const { messages } = await listBotMessages(platform, since);
  return messages.at(-1)?.text ?? "(no answer)";
}

describe.each(["Telegram", "Discord", "Slack", "WhatsApp", "Teams", "GoogleChat"] as const)("the %s simulator", (platform) => {
  it("accepts every command the checkout and the rental's page print, as printed", async () => {
    const agent = await makeAgent({
      webhook: { url: hook.url, token },
      listing: { name: `Sim ${platform} ${randomBytes(2).toString("hex")}`, channels: ["API", platform] },
    });
    const rental = await makeRental(agent.id, { channel: platform });
    const code = rental.id.slice(0, 8);
    const renter = await makeRenterAccount();
    await db.rental.update({ where: { id: rental.id }, data: { renterId: renter.id } });
    const [first, second] = [String(randomInt(1e6, 9e6)), String(randomInt(1e6, 9e6))];

    // The checkout's start command, exactly as it is printed.
    const printed = activationSteps(platform, code, "http://localhost", LINKS).flatMap((step) => (step.command ? [step.command] : []));
    expect(printed).toEqual([botCommand(platform, "start", code)]);
    for (const command of printed) expect(await typed(platform, first, command)).toMatch(new RegExp(`^Connected to ${agent.name}\\.`));

    // The steps' status command and a message to the agent ("/chat message:<text>" on Discord).
    expect(await typed(platform, first, botCommand(platform, "status"))).toMatch(
      new RegExp(`^Connected to ${agent.name}\\. The rental ends`),
    );
    expect(await typed(platform, first, platform === "Discord" ? "/chat message:Hello" : "Hello")).toBe("Echo: Hello");

    // The extend command (issue 29): the link to the page that signs the extension.
    expect(await typed(platform, first, botCommand(platform, "extend"))).toMatch(
      new RegExp(`^Your rental of ${agent.name} ends [^\\n]+\\.\\nExtend it here .*: http://\\S+/dashboard/rentals/${rental.id}/extend\\n`),
    );
    expect(await typed(platform, String(randomInt(1e6, 9e6)), botCommand(platform, "extend"))).toMatch(
      /^You are not connected to an agent/,
    );

    // The rental page's move command (ChatMoveCommand), from another account.
    const move = await createChatMove(rental.id, { account: renter });
    expect(await typed(platform, second, botCommand(platform, "start", move.token))).toMatch(
      new RegExp(`^Connected to ${agent.name}\\. It was moved here`),
    );
    expect(await typed(platform, second, botCommand(platform, "stop"))).toMatch(/disconnected/i);
  });
});
