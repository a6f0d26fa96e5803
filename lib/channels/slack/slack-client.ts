import "server-only";
import { WebClient } from "@slack/web-api";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

/**
 * The Web API client for a workspace: SLACK_BOT_TOKEN when set (one workspace, and the tests),
 * otherwise the bot token that workspace stored when it added the app ("Add to Slack"),
 * decrypted here only. SLACK_API_URL points it at a local mock in development and tests.
 */
export async function slackClient(teamId: string): Promise<WebClient> {
  const token = env.SLACK_BOT_TOKEN ?? (await installedToken(teamId));
  return new WebClient(token, { slackApiUrl: env.SLACK_API_URL, retryConfig: { retries: 2 } });
}

async function installedToken(teamId: string): Promise<string> {
  const installation = await db.slackInstallation.findUnique({ where: { teamId } });
  if (!installation) throw new Error(`the Slack workspace ${teamId} has not added the app`);
  return decryptSecret(installation.botTokenCipher, `slack-installation:${teamId}`);
}
