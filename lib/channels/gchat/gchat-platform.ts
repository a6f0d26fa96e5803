import "server-only";
import { ANY_MESSAGE_CHATS } from "@/lib/channels/bot-platform";
import { googleChatMessageRequest } from "@/lib/channels/dev/gchat-requests";
import { redirectGoogleCertificates } from "@/lib/channels/dev/google-certificates";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { env } from "@/lib/env";

/**
 * The Google Chat app (/api/channels/gchat) through `@chat-adapter/gchat`, in direct messages
 * only (a mention in a space is not answered). Requests carry a token Google Chat signs for the
 * project number (verified by the adapter against Google's certificates); replies go through the
 * Chat API as the app's service account, its token from the credentials' token_uri. A chat user
 * is their Google Chat id ("users/…"); notices go to the DM they last wrote from.
 */
export const googleChatPlatform: SdkPlatform = {
  name: "GoogleChat",
  adapterName: "gchat",
  configured: () => Boolean(env.GOOGLE_CHAT_PROJECT_NUMBER && env.GOOGLE_CHAT_CREDENTIALS),
  apiUrl: () => env.GOOGLE_CHAT_API_URL,
  adapterOptions: () => ({
    projectNumber: env.GOOGLE_CHAT_PROJECT_NUMBER ?? "",
    botUserId: env.GOOGLE_CHAT_BOT_USER_ID ?? "",
    credentials: JSON.stringify(env.GOOGLE_CHAT_CREDENTIALS ?? null),
    apiUrl: env.GOOGLE_CHAT_API_URL.replace(/\/+$/, ""),
  }),
  createAdapter: async ({ projectNumber, botUserId, credentials, apiUrl }) => {
    const [{ createGoogleChatAdapter }, { ConsoleLogger }, { googleServiceAccountAuth }] = await Promise.all([
      import("@chat-adapter/gchat"),
      import("chat"),
      import("@/lib/channels/gchat/gchat-auth"),
    ]);
    // npm run dev only: the adapter fetches Google's certificates from a fixed address.
    if (env.DEV_PLATFORM_MOCK_URL && apiUrl.startsWith(env.DEV_PLATFORM_MOCK_URL)) redirectGoogleCertificates(env.DEV_PLATFORM_MOCK_URL);
    return createGoogleChatAdapter({
      googleChatProjectNumber: projectNumber,
      ...(botUserId ? { botUserId } : {}),
      apiUrl,
      auth: googleServiceAccountAuth(JSON.parse(credentials)),
      userName: "Agent Rental",
      // Its warnings on a refused request carry the whole token.
      logger: new ConsoleLogger("error"),
    });
  },
  messageLimit: 4_096,
  howToChat: ANY_MESSAGE_CHATS,
  simulatedRequest: (base, userId, text) =>
    googleChatMessageRequest(`${base}/gchat`, env.DEV_CHAT_SIGNING_KEY ?? "", userId, text, {
      projectNumber: env.GOOGLE_CHAT_PROJECT_NUMBER ?? "",
    }),
};
