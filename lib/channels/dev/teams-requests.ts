import "server-only";
import { randomBytes } from "node:crypto";
import { DEV_TEAMS_KID, epochSeconds, signJwt } from "@/lib/channels/dev/sign-jwt";

// Requests as the Bot Framework sends them to a Teams bot's route: an activity with a bearer token
// signed by the Bot Framework's key (here a local one, whose OpenID metadata and JWKS the platform
// mock serves): for the tests and the /dev/channels page (development only), which go through the
// real route and its real verification.

type TeamsMessage = {
  /** The bot's Microsoft App ID: the token's audience. */
  appId: string;
  /** Where the bot answers (the mock's /teams/): the activity's serviceUrl and the token's serviceurl claim. */
  serviceUrl: string;
  tenantId?: string;
  activityId?: string;
  /** The channel the activity says it comes from ("msteams"; a test's another). */
  channelId?: string;
  /** Claims that replace the Bot Framework's (a test's wrong audience or serviceurl). */
  claims?: Record<string, unknown>;
};

/** A message activity from Teams user `userId` in their personal chat with the bot, signed with `key`. */
export function teamsMessageRequest(url: string, key: string, userId: string, text: string, message: TeamsMessage): Request {
  const { appId, serviceUrl, tenantId = "00000000-0000-0000-0000-00000000d0e5", activityId = randomBytes(8).toString("hex") } = message;
  const activity = {
    type: "message",
    id: activityId,
    timestamp: new Date().toISOString(),
    channelId: message.channelId ?? "msteams",
    serviceUrl,
    text,
    textFormat: "plain",
    from: { id: `29:${userId}`, name: `Dev ${userId.slice(-4)}` },
    recipient: { id: `28:${appId}`, name: "Agent Rental" },
    conversation: { id: `a:dev-${userId}`, conversationType: "personal", tenantId },
    channelData: { tenant: { id: tenantId } },
  };
  const now = epochSeconds();
  const token = signJwt(key, DEV_TEAMS_KID, {
    iss: "https://api.botframework.com",
    aud: appId,
    serviceurl: serviceUrl,
    nbf: now,
    iat: now,
    exp: now + 3600,
    ...message.claims,
  });
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(activity),
  });
}
