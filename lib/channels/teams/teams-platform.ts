import "server-only";
import { ANY_MESSAGE_CHATS } from "@/lib/channels/bot-platform";
import { teamsMessageRequest } from "@/lib/channels/dev/teams-requests";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { teamsRequestVerifier, teamsTokenSource } from "@/lib/channels/teams/teams-auth";
import { env } from "@/lib/env";

/**
 * The Microsoft Teams bot (/api/channels/teams), an Azure Bot through `@chat-adapter/teams`, in
 * personal chats only (a mention in a channel or group chat is not answered). Requests are
 * verified by our own check of the Bot Framework's token (teams-auth.ts, at
 * TEAMS_OPENID_METADATA_URL) and the bot's token comes from TEAMS_LOGIN_URL: the adapter's own
 * paths have no base URL to set (docs/decisions.md). A chat user is their Teams id ("29:…");
 * notices go to the personal chat they last wrote from, at the serviceUrl that message came from.
 */
export const teamsPlatform: SdkPlatform = {
  name: "Teams",
  adapterName: "teams",
  configured: () => Boolean(env.TEAMS_APP_ID && env.TEAMS_APP_PASSWORD),
  // Where the bot's token comes from: a bot whose login is the dev mock exists nowhere else.
  apiUrl: () => env.TEAMS_LOGIN_URL,
  adapterOptions: () => ({
    appId: env.TEAMS_APP_ID ?? "",
    appPassword: env.TEAMS_APP_PASSWORD ?? "",
    appTenantId: env.TEAMS_APP_TENANT_ID ?? "",
    apiUrl: env.TEAMS_API_URL ?? "",
    loginUrl: env.TEAMS_LOGIN_URL,
    metadataUrl: env.TEAMS_OPENID_METADATA_URL,
  }),
  createAdapter: async ({ appId, appPassword, appTenantId, apiUrl, loginUrl, metadataUrl }) => {
    const [{ createTeamsAdapter }, { ConsoleLogger }] = await Promise.all([import("@chat-adapter/teams"), import("chat")]);
    return createTeamsAdapter({
      appId,
      ...(appTenantId ? { appTenantId, appType: "SingleTenant" as const } : { appType: "MultiTenant" as const }),
      ...(apiUrl ? { apiUrl } : {}),
      token: teamsTokenSource(loginUrl, appId, appPassword, appTenantId || undefined),
      webhookVerifier: teamsRequestVerifier(appId, metadataUrl),
      userName: "Agent Rental",
      logger: new ConsoleLogger("error"),
    });
  },
  // Teams takes about 28 KB a message, markup included.
  messageLimit: 20_000,
  howToChat: ANY_MESSAGE_CHATS,
  simulatedRequest: (base, userId, text) =>
    teamsMessageRequest(`${base}/teams`, env.DEV_CHAT_SIGNING_KEY ?? "", userId, text, {
      appId: env.TEAMS_APP_ID ?? "",
      serviceUrl: `${env.DEV_PLATFORM_MOCK_URL}/teams/`,
      tenantId: env.TEAMS_APP_TENANT_ID,
    }),
};
