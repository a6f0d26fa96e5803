// `npm run dev` runs the chat bots (Telegram, Discord, Slack, WhatsApp) without any platform
// account: their APIs are the local mock (the same one the tests use), and their settings are made
// up here — unless the developer set a platform's own, which then wins. /dev/channels signs
// requests with these settings.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { type ChatPlatformMock, startChatPlatformMock } from "./chat-platform-mock";

export async function startDevChannels(): Promise<ChatPlatformMock> {
  const mock = await startChatPlatformMock();
  const env = process.env;
  env.DEV_PLATFORM_MOCK_URL = mock.url;
  if (!env.TELEGRAM_BOT_TOKEN) {
    env.TELEGRAM_BOT_TOKEN = "1000:dev-telegram-token";
    env.TELEGRAM_WEBHOOK_SECRET = randomBytes(24).toString("base64url");
    env.TELEGRAM_BOT_USERNAME = "agent_rental_dev_bot";
    env.TELEGRAM_API_URL = `${mock.url}/telegram`;
  }
  if (!env.DISCORD_APPLICATION_ID) {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    env.DISCORD_APPLICATION_ID = "100000000000000001";
    // The raw 32-byte key, as the Developer Portal shows it: the last 32 bytes of the SPKI form.
    env.DISCORD_PUBLIC_KEY = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
    env.DISCORD_BOT_TOKEN = "dev-discord-bot-token";
    env.DISCORD_API_URL = `${mock.url}/discord`;
    env.DEV_DISCORD_PRIVATE_KEY = privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
  }
  if (!env.SLACK_SIGNING_SECRET) {
    env.SLACK_SIGNING_SECRET = randomBytes(24).toString("hex");
    env.SLACK_BOT_TOKEN = "xoxb-dev-slack-token";
    env.SLACK_API_URL = `${mock.url}/slack/`;
  }
  if (!env.WHATSAPP_ACCESS_TOKEN) {
    env.WHATSAPP_ACCESS_TOKEN = "dev-whatsapp-access-token";
    env.WHATSAPP_APP_SECRET = randomBytes(24).toString("hex");
    env.WHATSAPP_PHONE_NUMBER_ID = "100000000000001";
    env.WHATSAPP_VERIFY_TOKEN = randomBytes(16).toString("base64url");
    // Made up like the rest: the checkout links to the simulator, never to this number.
    env.WHATSAPP_PHONE_NUMBER = "15550000000";
    env.WHATSAPP_API_URL = `${mock.url}/whatsapp`;
  }
  return mock;
}
