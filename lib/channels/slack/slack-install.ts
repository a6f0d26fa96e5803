import "server-only";
import { randomBytes } from "node:crypto";
import { WebClient } from "@slack/web-api";
import { sessionCookieIsSecure } from "@/lib/auth/session-cookie";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { appUrl, env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

// "Add to Slack" (OAuth v2): the browser leaves with a random state, kept in a short-lived cookie
// of this path only, and must come back with the same one; a callback without it is refused, so
// nobody can make another person's browser install a workspace of theirs.
const STATE_COOKIE = "ars_slack_state";
const STATE_TTL_SECONDS = 600;
const BOT_SCOPES = ["commands", "chat:write", "im:history", "im:write"];

const redirectUri = () => `${appUrl().replace(/\/+$/, "")}/api/channels/slack/oauth`;
const stateCookie = (value: string, maxAge: number) =>
  [
    `${STATE_COOKIE}=${value}`,
    "Path=/api/channels/slack",
    `Max-Age=${maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(sessionCookieIsSecure() ? ["Secure"] : []),
  ].join("; ");

function requireOAuthSettings(): { clientId: string; clientSecret: string } {
  if (!env.SLACK_CLIENT_ID || !env.SLACK_CLIENT_SECRET)
    throw new ApiError(404, "Adding the Slack app to a workspace is not set up on this service.");
  return { clientId: env.SLACK_CLIENT_ID, clientSecret: env.SLACK_CLIENT_SECRET };
}

/** GET /api/channels/slack/install: off to Slack's consent page, with the state remembered. */
export function startSlackInstall(): Response {
  const { clientId } = requireOAuthSettings();
  const state = randomBytes(24).toString("base64url");
  const authorize = new URL("https://slack.com/oauth/v2/authorize");
  authorize.search = new URLSearchParams({
    client_id: clientId,
    scope: BOT_SCOPES.join(","),
    redirect_uri: redirectUri(),
    state,
  }).toString();
  return new Response(null, {
    status: 302,
    headers: { Location: authorize.toString(), "Set-Cookie": stateCookie(state, STATE_TTL_SECONDS) },
  });
}

/**
 * GET /api/channels/slack/oauth: checks the state, exchanges the code for the workspace's bot
 * token (oauth.v2.access) and stores it encrypted, bound to the team id; then a page that says so.
 */
export async function finishSlackInstall(req: Request): Promise<Response> {
  const { clientId, clientSecret } = requireOAuthSettings();
  const url = new URL(req.url);
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state") ?? "";
  const remembered = /(?:^|;\s*)ars_slack_state=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
  if (url.searchParams.get("error")) throw new ApiError(400, "Slack was not added: the workspace's consent was not given.");
  if (!code || !remembered || !constantTimeEqual(state, remembered)) {
    throw new ApiError(400, "This Slack sign-in link has expired or was not started here; press Add to Slack again.");
  }
  const client = new WebClient(undefined, { slackApiUrl: env.SLACK_API_URL, retryConfig: { retries: 1 } });
  const answer = await client.oauth.v2.access({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: redirectUri() });
  const teamId = answer.team?.id;
  if (!answer.ok || !answer.access_token || !teamId || !answer.bot_user_id)
    throw new ApiError(502, "Slack did not hand over the app's token; try again.");
  const botTokenCipher = encryptSecret(answer.access_token, `slack-installation:${teamId}`);
  const row = { teamName: answer.team?.name ?? teamId, botUserId: answer.bot_user_id, botTokenCipher };
  await db.slackInstallation.upsert({ where: { teamId }, create: { teamId, ...row }, update: row });
  return new Response(null, { status: 302, headers: { Location: "/channels/slack-added", "Set-Cookie": stateCookie("", 0) } });
}
