// The renter and owner APIs (/api/v1, /api/public), as the fuzz calls them.
import fc from "fast-check";
import * as PUBLIC_CATCH_ALL from "@/app/api/public/[...path]/route";
import * as PUBLIC_AGENT_CONNECT from "@/app/api/public/agents/[id]/connect/route";
import * as PUBLIC_AGENT from "@/app/api/public/agents/[id]/route";
import * as PUBLIC_AGENT_SIGNING_SECRET from "@/app/api/public/agents/[id]/signing-secret/route";
import * as PUBLIC_AGENTS from "@/app/api/public/agents/route";
import * as PUBLIC_ROOT from "@/app/api/public/route";
import * as PUBLIC_STATS from "@/app/api/public/stats/route";
import * as V1_CATCH_ALL from "@/app/api/v1/[...path]/route";
import * as V1_PAID_CHAT from "@/app/api/v1/agents/[agentId]/chat/route";
import * as V1_PAID_MCP from "@/app/api/v1/agents/[agentId]/mcp/route";
import * as V1_AVAILABILITY from "@/app/api/v1/availability/route";
import * as V1_CHAT_COMPLETIONS from "@/app/api/v1/chat/completions/route";
import * as V1_CHAT from "@/app/api/v1/chat/route";
import * as V1_MCP from "@/app/api/v1/mcp/route";
import * as V1_MODELS from "@/app/api/v1/models/route";
import * as V1_OPENAPI from "@/app/api/v1/openapi.json/route";
import * as V1_ROOT from "@/app/api/v1/route";
import * as V1_STATUS from "@/app/api/v1/status/route";
import {
  anyCredential,
  bodyOf,
  headerValue,
  listing,
  mostly,
  nastyText,
  nearObject,
  ownerCredential,
  renterCredential,
  unicodeText,
} from "./fuzz-cases";
import { noBody, type Route } from "./fuzz-route-types";

export const API_ROUTES: Route[] = [
  {
    path: "/api/v1/chat",
    mod: V1_CHAT,
    serves: ["POST"],
    credential: renterCredential,
    body: bodyOf(
      nearObject({
        message: fc.oneof(fc.string({ maxLength: 200 }), unicodeText, nastyText, fc.constantFrom("fail", "", "x".repeat(10_001))),
      }),
    ),
  },
  { path: "/api/v1/status", mod: V1_STATUS, serves: ["GET"], credential: renterCredential, body: noBody },
  { path: "/api/v1/availability", mod: V1_AVAILABILITY, serves: ["GET"], credential: renterCredential, body: noBody },
  {
    path: "/api/v1/chat/completions",
    mod: V1_CHAT_COMPLETIONS,
    serves: ["POST"],
    credential: renterCredential,
    dialect: "openai",
    body: bodyOf(
      nearObject({
        model: fc.oneof(fc.string({ maxLength: 40 }), unicodeText),
        messages: fc.oneof(
          fc.array(
            nearObject({
              role: fc.constantFrom("user", "system", "assistant", "tool", "nobody"),
              content: fc.oneof(
                fc.string({ maxLength: 100 }),
                nastyText,
                fc.constantFrom("fail", "", "x".repeat(10_001)),
                fc.array(nearObject({ type: fc.constantFrom("text", "image_url"), text: fc.string({ maxLength: 50 }) }), { maxLength: 3 }),
              ),
            }),
            { maxLength: 4 },
          ),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        stream: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 0 })),
      }),
    ),
  },
  { path: "/api/v1/models", mod: V1_MODELS, serves: ["GET"], credential: renterCredential, body: noBody, dialect: "openai" },
  {
    path: "/api/v1/mcp",
    mod: V1_MCP,
    serves: ["POST"],
    credential: renterCredential,
    dialect: "jsonrpc",
    headers: fc.constantFrom<[string, string][]>([["accept", "application/json, text/event-stream"]], []),
    body: bodyOf(
      nearObject({
        jsonrpc: fc.constantFrom("2.0", "1.0"),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        method: fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "nope"),
        params: fc.oneof(
          nearObject({
            name: fc.constantFrom("chat", "status", "nope"),
            arguments: nearObject({ message: fc.oneof(fc.string(), nastyText) }),
          }),
          nearObject({ protocolVersion: fc.constantFrom("2025-06-18", "1999-01-01"), capabilities: fc.constant({}) }),
        ),
      }),
    ),
  },
  {
    // Answers sold per message (x402): no rental code; a payment header that may be anything an
    // HTTP header can carry.
    path: "/api/v1/agents/[agentId]/chat",
    mod: V1_PAID_CHAT,
    serves: ["POST"],
    credential: anyCredential,
    pool: "agent",
    dynamicId: true,
    idParam: "agentId",
    headers: fc.oneof(
      fc.constant<[string, string][]>([]),
      fc.oneof(fc.base64String({ maxLength: 200 }), headerValue).map((v): [string, string][] => [["payment-signature", v]]),
    ),
    body: bodyOf(
      nearObject({ message: fc.oneof(fc.string({ maxLength: 200 }), unicodeText, nastyText, fc.constantFrom("", "x".repeat(10_001))) }),
    ),
  },
  {
    path: "/api/v1/agents/[agentId]/mcp",
    mod: V1_PAID_MCP,
    serves: ["POST"],
    credential: anyCredential,
    pool: "agent",
    dynamicId: true,
    idParam: "agentId",
    dialect: "jsonrpc",
    headers: fc.constantFrom<[string, string][]>([["accept", "application/json, text/event-stream"]], []),
    body: bodyOf(
      nearObject({
        jsonrpc: fc.constantFrom("2.0", "1.0"),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        method: fc.constantFrom("initialize", "tools/list", "tools/call", "nope"),
        params: nearObject({ name: fc.constantFrom("chat", "nope"), arguments: nearObject({ message: fc.oneof(fc.string(), nastyText) }) }),
      }),
    ),
  },
  { path: "/api/v1/openapi.json", mod: V1_OPENAPI, serves: ["GET"], credential: anyCredential, body: noBody },
  { path: "/api/v1/nope/deeper", mod: V1_CATCH_ALL, serves: [], credential: renterCredential, body: noBody },
  { path: "/api/v1", mod: V1_ROOT, serves: [], credential: renterCredential, body: noBody },
  {
    path: "/api/public/agents",
    mod: PUBLIC_AGENTS,
    serves: ["GET", "POST"],
    credential: ownerCredential,
    body: bodyOf(listing),
    pool: "agents",
  },
  {
    path: "/api/public/agents/[id]",
    mod: PUBLIC_AGENT,
    serves: ["GET", "PATCH", "DELETE"],
    credential: ownerCredential,
    body: bodyOf(listing),
    pool: "agent",
    dynamicId: true,
  },
  {
    path: "/api/public/agents/[id]/connect",
    mod: PUBLIC_AGENT_CONNECT,
    serves: ["POST"],
    credential: ownerCredential,
    // Only URLs that answer at once: the test's webhook, a refused port, and malformed ones (never
    // a DNS name or a private network address, which would wait for a timeout).
    body: bodyOf(
      nearObject({
        webhookUrl: mostly(
          fc.constantFrom("HOOK", "HOOK", "HOOK_FAIL", "CLOSED"),
          fc.constantFrom(
            "not a url",
            "ftp://127.0.0.1/x",
            "http://user:pw@127.0.0.1/hooks",
            "https://",
            "javascript:alert(1)",
            "http://[::1",
          ),
        ),
        webhookToken: mostly(
          fc.base64String({ minLength: 44, maxLength: 80 }),
          fc.string({ maxLength: 40 }),
          unicodeText,
          nastyText.map((t) => t.padEnd(40, "x")),
        ),
      }),
    ),
    pool: "connect",
    dynamicId: true,
  },
  {
    path: "/api/public/agents/[id]/signing-secret",
    mod: PUBLIC_AGENT_SIGNING_SECRET,
    serves: ["POST"],
    credential: ownerCredential,
    body: noBody,
    pool: "connect",
    dynamicId: true,
  },
  {
    path: "/api/public/stats",
    mod: PUBLIC_STATS,
    serves: ["GET"],
    credential: ownerCredential,
    body: noBody,
    pool: "stats",
  },
  { path: "/api/public/nope", mod: PUBLIC_CATCH_ALL, serves: [], credential: ownerCredential, body: noBody },
  { path: "/api/public", mod: PUBLIC_ROOT, serves: [], credential: ownerCredential, body: noBody },
];
