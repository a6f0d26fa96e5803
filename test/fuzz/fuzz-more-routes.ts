// The routes outside the renter and owner APIs that came later: the A2A endpoints and cards, the
// WhatsApp, Teams and Google Chat bots, the queued batches, the probe cron and agent pictures.
import fc from "fast-check";
import * as AGENT_CARD from "@/app/.well-known/agent-card.json/route";
import * as A2A_LISTING_CARD from "@/app/a2a/[agentId]/.well-known/agent-card.json/route";
import * as A2A_LISTING from "@/app/a2a/[agentId]/route";
import * as A2A_MARKETPLACE from "@/app/a2a/route";
import * as AGENT_AVATAR from "@/app/api/agents/[id]/avatar/route";
import * as CHANNEL_GCHAT from "@/app/api/channels/gchat/route";
import * as CHANNEL_TEAMS from "@/app/api/channels/teams/route";
import * as CHANNEL_WHATSAPP from "@/app/api/channels/whatsapp/route";
import * as CRON_PROBE_RENTALS from "@/app/api/cron/probe-rentals/route";
import * as QUEUE_HEALTH_CHECKS from "@/app/api/queue/health-checks/route";
import * as QUEUE_PROBE_RENTALS from "@/app/api/queue/probe-rentals/route";
import { anyCredential, bodyOf, mostly, nastyText, nearObject, renterCredential, unicodeText } from "./fuzz-cases";
import { noBody, type Route } from "./fuzz-route-types";

// A JSON-RPC request as A2A clients send one (protocol v1.0 and v0.3 method names), or near it.
const a2aRequest = bodyOf(
  nearObject({
    jsonrpc: fc.constantFrom("2.0", "1.0"),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
    method: fc.constantFrom("message/send", "SendMessage", "message/stream", "tasks/get", "GetTask", "tasks/cancel", "nope"),
    params: nearObject({
      message: nearObject({
        kind: fc.constant("message"),
        role: fc.constantFrom("user", "agent", "nobody"),
        messageId: fc.uuid(),
        parts: fc.array(
          nearObject({
            kind: fc.constantFrom("text", "file", "data"),
            text: mostly(fc.string({ maxLength: 100 }), unicodeText, nastyText),
          }),
          { maxLength: 3 },
        ),
      }),
      id: fc.uuid(),
    }),
  }),
);

// A batch of agent ids, as the queue delivers one (never signed here: the queue is not set up).
const batch = bodyOf(nearObject({ round: fc.string({ maxLength: 30 }), agentIds: fc.array(fc.uuid(), { maxLength: 3 }) }));

export const MORE_ROUTES: Route[] = [
  { path: "/.well-known/agent-card.json", mod: AGENT_CARD, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/a2a", mod: A2A_MARKETPLACE, serves: ["POST"], credential: anyCredential, body: a2aRequest, dialect: "jsonrpc" },
  // The renter agent ("other") is the one the world's rental codes are for: those reach the agent.
  {
    path: "/a2a/[agentId]",
    mod: A2A_LISTING,
    serves: ["POST"],
    credential: renterCredential,
    body: a2aRequest,
    dynamicId: true,
    idParam: "agentId",
    dialect: "jsonrpc",
  },
  {
    path: "/a2a/[agentId]/.well-known/agent-card.json",
    mod: A2A_LISTING_CARD,
    serves: ["GET"],
    credential: anyCredential,
    body: noBody,
    dynamicId: true,
    idParam: "agentId",
  },
  { path: "/api/agents/[id]/avatar", mod: AGENT_AVATAR, serves: ["GET"], credential: anyCredential, body: noBody, dynamicId: true },
  // The bots not set up in the unit suite: their routes must still answer every method in JSON.
  { path: "/api/channels/whatsapp", mod: CHANNEL_WHATSAPP, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  { path: "/api/channels/teams", mod: CHANNEL_TEAMS, serves: ["POST"], credential: anyCredential, body: noBody },
  { path: "/api/channels/gchat", mod: CHANNEL_GCHAT, serves: ["POST"], credential: anyCredential, body: noBody },
  // Crons and batches: the right secret or signature is never sent.
  { path: "/api/cron/probe-rentals", mod: CRON_PROBE_RENTALS, serves: ["GET", "POST"], credential: anyCredential, body: noBody },
  { path: "/api/queue/health-checks", mod: QUEUE_HEALTH_CHECKS, serves: ["POST"], credential: anyCredential, body: batch },
  { path: "/api/queue/probe-rentals", mod: QUEUE_PROBE_RENTALS, serves: ["POST"], credential: anyCredential, body: batch },
];
