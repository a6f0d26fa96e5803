// The app's own routes (checkout, sign-in, crons, the bots' webhooks, health, catch-alls), as the fuzz calls them.
import fc from "fast-check";
import * as API_CATCH_ALL from "@/app/api/[...path]/route";
import * as AUTH_CALLBACK from "@/app/api/auth/email/callback/route";
import * as AUTH_EMAIL from "@/app/api/auth/email/route";
import * as AUTH_NONCE from "@/app/api/auth/nonce/route";
import * as AUTH_SESSION from "@/app/api/auth/session/route";
import * as AUTH_SIGN_OUT from "@/app/api/auth/sign-out/route";
import * as AUTH_SIWE from "@/app/api/auth/siwe/route";
import * as CHANNEL_DISCORD from "@/app/api/channels/discord/route";
import * as CHANNEL_SLACK_INSTALL from "@/app/api/channels/slack/install/route";
import * as CHANNEL_SLACK_OAUTH from "@/app/api/channels/slack/oauth/route";
import * as CHANNEL_SLACK from "@/app/api/channels/slack/route";
import * as CHANNEL_TELEGRAM from "@/app/api/channels/telegram/route";
import * as CHECKOUT_CHAT_MOVE from "@/app/api/checkout/chat-move/route";
import * as CHECKOUT_CONFIRM from "@/app/api/checkout/confirm/route";
import * as CHECKOUT_EXTEND_CONFIRM from "@/app/api/checkout/extend-confirm/route";
import * as CHECKOUT_EXTEND_QUOTE from "@/app/api/checkout/extend-quote/route";
import * as CHECKOUT_QUOTE from "@/app/api/checkout/quote/route";
import * as CRON_END_CHATS from "@/app/api/cron/end-chats/route";
import * as CRON_HEALTH_CHECKS from "@/app/api/cron/health-checks/route";
import * as CRON_RELEASE from "@/app/api/cron/release-rentals/route";
import * as CRON_REMIND_RENTALS from "@/app/api/cron/remind-rentals/route";
import * as CRON_RETRY_EMAILS from "@/app/api/cron/retry-emails/route";
import * as CRON_SEND_MESSAGES from "@/app/api/cron/send-messages/route";
import * as CRON_SYNC from "@/app/api/cron/sync-escrow/route";
import * as DASHBOARD_RENTAL_LIVE from "@/app/api/dashboard/rentals/[id]/live/route";
import * as DEV_CHANNELS from "@/app/api/dev/channels/route";
import * as HEALTH from "@/app/api/health/route";
import * as API_ROOT from "@/app/api/route";
import {
  address,
  anyCredential,
  bodyOf,
  headerValue,
  hex,
  mostly,
  nastyText,
  nearObject,
  renterCredential,
  unicodeText,
} from "./fuzz-cases";
import { noBody, type Route, sameOrigin } from "./fuzz-route-types";

export const APP_ROUTES: Route[] = [
  {
    path: "/api/checkout/quote",
    mod: CHECKOUT_QUOTE,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        agentId: mostly(fc.constant("PAYABLE"), fc.uuid(), fc.string({ maxLength: 40 })),
        durationType: mostly(fc.constantFrom("hour", "day", "month"), fc.string({ maxLength: 8 })),
        channel: mostly(fc.constantFrom("API", "Telegram", "Discord", "Slack"), fc.string({ maxLength: 8 })),
        renter: address,
      }),
    ),
  },
  {
    path: "/api/checkout/confirm",
    mod: CHECKOUT_CONFIRM,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        txHash: fc.oneof(
          fc.constant("PAID"),
          hex(64, 64).map((h) => `0x${h}`),
          fc.string({ maxLength: 70 }),
        ),
        claimSecret: mostly(fc.constantFrom("CLAIM", "CLAIM"), fc.base64String({ maxLength: 64 }), fc.string({ maxLength: 70 })),
      }),
    ),
  },
  {
    // The rental is named by its code, as on /v1.
    path: "/api/checkout/extend-quote",
    mod: CHECKOUT_EXTEND_QUOTE,
    serves: ["POST"],
    credential: renterCredential,
    body: bodyOf(
      nearObject({
        periods: mostly(fc.integer({ min: 1, max: 12 }), fc.integer(), fc.double(), fc.string({ maxLength: 8 })),
        durationType: mostly(fc.constantFrom("hour", "day", "month"), fc.string({ maxLength: 8 })),
      }),
    ),
  },
  {
    path: "/api/checkout/extend-confirm",
    mod: CHECKOUT_EXTEND_CONFIRM,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        txHash: fc.oneof(
          hex(64, 64).map((h) => `0x${h}`),
          fc.string({ maxLength: 70 }),
        ),
      }),
    ),
  },
  {
    path: "/api/checkout/chat-move",
    mod: CHECKOUT_CHAT_MOVE,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        rentalId: mostly(fc.uuid(), fc.string({ maxLength: 40 })),
        claimSecret: mostly(fc.constant("CLAIM"), fc.base64String({ maxLength: 64 }), fc.string({ maxLength: 70 })),
      }),
    ),
  },
  { path: "/api/auth/nonce", mod: AUTH_NONCE, serves: ["GET"], credential: anyCredential, body: noBody },
  {
    path: "/api/auth/siwe",
    mod: AUTH_SIWE,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        message: mostly(fc.constantFrom("SIWE_SIGNED", "SIWE_UNSIGNED", "SIWE_STALE_NONCE"), fc.string({ maxLength: 400 })),
        signature: mostly(
          fc.constant("SIGNATURE"),
          hex(130, 130).map((h) => `0x${h}`),
          hex(2, 300).map((h) => `0x${h}`),
          fc.string({ maxLength: 40 }),
        ),
      }),
    ),
  },
  {
    path: "/api/auth/email",
    mod: AUTH_EMAIL,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        email: fc.oneof(
          fc.stringMatching(/^[a-z0-9][a-z0-9.+-]{0,20}$/).map((local) => `${local}@example.com`),
          fc.emailAddress(),
          fc.string({ maxLength: 300 }),
          nastyText.map((t) => `${t}@example.com`),
        ),
      }),
    ),
  },
  {
    path: "/api/auth/email/callback",
    mod: AUTH_CALLBACK,
    serves: ["POST"],
    credential: anyCredential,
    body: fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .oneof(fc.base64String({ maxLength: 60 }), fc.string({ maxLength: 60 }))
          .map((token) => ({ kind: "text" as const, text: new URLSearchParams({ token }).toString() })),
      },
      { weight: 2, arbitrary: noBody },
    ),
    headers: sameOrigin,
  },
  { path: "/api/auth/session", mod: AUTH_SESSION, serves: ["GET"], credential: anyCredential, body: noBody },
  {
    path: "/api/auth/sign-out",
    mod: AUTH_SIGN_OUT,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(nearObject({ everywhere: fc.boolean() })),
    headers: sameOrigin,
  },
  // Crons: the right secret is never sent (a run would sweep the whole shared test database).
  {
    path: "/api/cron/health-checks",
    mod: CRON_HEALTH_CHECKS,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  {
    path: "/api/cron/release-rentals",
    mod: CRON_RELEASE,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  { path: "/api/cron/sync-escrow", mod: CRON_SYNC, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  {
    path: "/api/cron/retry-emails",
    mod: CRON_RETRY_EMAILS,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  {
    path: "/api/cron/send-messages",
    mod: CRON_SEND_MESSAGES,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  {
    path: "/api/cron/end-chats",
    mod: CRON_END_CHATS,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  {
    path: "/api/cron/remind-rentals",
    mod: CRON_REMIND_RENTALS,
    serves: ["GET", "POST"],
    credential: anyCredential,
    body: noBody,
  },
  // The Telegram bot's webhook: mostly the right secret token (the unit suite's setting), so the
  // updates reach the parser and the database; the reply work after the answer is not run here.
  {
    path: "/api/channels/telegram",
    mod: CHANNEL_TELEGRAM,
    serves: ["POST"],
    credential: anyCredential,
    body: bodyOf(
      nearObject({
        update_id: mostly(fc.integer({ min: 0, max: 2 ** 40 }), fc.double(), fc.string({ maxLength: 12 })),
        message: nearObject({
          from: nearObject({
            id: mostly(fc.integer({ min: 1, max: 2 ** 40 }), fc.string({ maxLength: 12 })),
            is_bot: fc.boolean(),
            username: fc.string({ maxLength: 32 }),
          }),
          chat: nearObject({
            id: fc.integer(),
            type: mostly(fc.constant("private"), fc.constantFrom("group", "channel"), fc.string({ maxLength: 10 })),
          }),
          text: mostly(fc.constantFrom("/start", "/status", "/stop", "/help", "/start 0000000a", "hello"), unicodeText, nastyText),
        }),
      }),
    ),
    headers: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constant<[string, string][]>([["x-telegram-bot-api-secret-token", "test-telegram-secret-0123456789"]]),
      },
      { weight: 1, arbitrary: headerValue.map((v): [string, string][] => [["x-telegram-bot-api-secret-token", v]]) },
      { weight: 1, arbitrary: fc.constant<[string, string][]>([]) },
    ),
  },
  // Discord and Slack are not set up in the unit suite: their routes must still answer every method in JSON.
  { path: "/api/channels/discord", mod: CHANNEL_DISCORD, serves: ["POST"], credential: anyCredential, body: noBody },
  { path: "/api/channels/slack", mod: CHANNEL_SLACK, serves: ["POST"], credential: anyCredential, body: noBody },
  { path: "/api/channels/slack/install", mod: CHANNEL_SLACK_INSTALL, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api/channels/slack/oauth", mod: CHANNEL_SLACK_OAUTH, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api/dev/channels", mod: DEV_CHANNELS, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  // The rental page's poll: ids are random, garbage or an agent's (none the session's rental), so 404 or 401.
  {
    path: "/api/dashboard/rentals/[id]/live",
    mod: DASHBOARD_RENTAL_LIVE,
    serves: ["GET"],
    credential: anyCredential,
    body: noBody,
    dynamicId: true,
  },
  { path: "/api/health", mod: HEALTH, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api", mod: API_ROOT, serves: [], credential: anyCredential, body: noBody },
  { path: "/api/nope/deeper", mod: API_CATCH_ALL, serves: [], credential: anyCredential, body: noBody },
];
