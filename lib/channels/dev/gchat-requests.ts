import "server-only";
import { randomBytes } from "node:crypto";
import { DEV_GOOGLE_CHAT_KID, epochSeconds, signJwt } from "@/lib/channels/dev/sign-jwt";

// Requests as Google Chat sends them to a Chat app's HTTP endpoint ("project number" audience): an
// event with a bearer token signed by chat@system.gserviceaccount.com (here a local key, whose
// X.509 certificate the platform mock serves): for the tests and the /dev/channels page
// (development only), which go through the real route and the adapter's real verification.

export const GOOGLE_CHAT_ISSUER = "chat@system.gserviceaccount.com";

type GoogleChatMessage = {
  /** The Cloud project's number: the token's audience. */
  projectNumber: string;
  messageId?: string;
  /** Claims that replace Google's (a test's wrong audience). */
  claims?: Record<string, unknown>;
};

/** A message from Google Chat user `userId` in their direct message space with the app, signed with `key`. */
export function googleChatMessageRequest(url: string, key: string, userId: string, text: string, message: GoogleChatMessage): Request {
  const { projectNumber, messageId = randomBytes(8).toString("hex") } = message;
  const space = { name: `spaces/dev-${userId}`, type: "DM", spaceType: "DIRECT_MESSAGE", singleUserBotDm: true };
  const user = { name: `users/${userId}`, displayName: `Dev ${userId.slice(-4)}`, type: "HUMAN" };
  const createTime = new Date().toISOString();
  const event = {
    commonEventObject: { hostApp: "CHAT", platform: "WEB" },
    chat: {
      user,
      eventTime: createTime,
      messagePayload: {
        space,
        message: {
          name: `${space.name}/messages/${messageId}`,
          sender: user,
          text,
          argumentText: text,
          createTime,
          thread: { name: `${space.name}/threads/${messageId}` },
          space,
        },
      },
    },
  };
  const now = epochSeconds();
  const token = signJwt(key, DEV_GOOGLE_CHAT_KID, {
    iss: GOOGLE_CHAT_ISSUER,
    aud: projectNumber,
    iat: now,
    exp: now + 3600,
    ...message.claims,
  });
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(event),
  });
}
