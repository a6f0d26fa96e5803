// `npm run dev` runs the chat bots without any platform account: their APIs are the local mock
// (the same one the tests use), and their settings are made up here — unless the developer set a
// platform's own, which then wins. /dev/channels signs requests with these settings (Teams' and
// Google Chat's with the mock's local key, whose JWKS and certificate the mock serves).
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
  env.DEV_CHAT_SIGNING_KEY = mock.signingKey();
  if (!env.TEAMS_APP_ID) {
    env.TEAMS_APP_ID = "00000000-0000-4000-8000-00000000b07a";
    env.TEAMS_APP_PASSWORD = "dev-teams-password";
    env.TEAMS_APP_TENANT_ID = "00000000-0000-4000-8000-00000000d0e5";
    env.TEAMS_LOGIN_URL = `${mock.url}/teams/login`;
    env.TEAMS_OPENID_METADATA_URL = `${mock.url}/teams/v1/.well-known/openidconfiguration`;
  }
  if (!env.GOOGLE_CHAT_PROJECT_NUMBER) {
    env.GOOGLE_CHAT_PROJECT_NUMBER = "100000000001";
    env.GOOGLE_CHAT_BOT_USER_ID = "users/100000000002";
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    env.GOOGLE_CHAT_CREDENTIALS = JSON.stringify({
      type: "service_account",
      client_email: "agent-rental-dev@dev-project.iam.gserviceaccount.com",
      private_key: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      token_uri: `${mock.url}/google/token`,
    });
    // Google's certificates, at a fixed address, come from the mock too: the app redirects the
    // global fetch's requests for them while its Chat API is the mock (google-certificates.ts).
    env.GOOGLE_CHAT_API_URL = mock.url;
  }
  return mock;
}
