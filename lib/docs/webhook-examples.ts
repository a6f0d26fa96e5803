import type { CodeExample } from "@/lib/docs/code-example";

// What the service sends to an owner's webhook and what a webhook answers (docs/webhooks.md), as
// the owners' docs page shows them. The test beside this file holds these to the requests the
// service really sends and runs the two minimal webhooks against it.

/** The sample message: one renter's message on a monthly rental bought for the API. */
export const SAMPLE_MESSAGE = {
  agentName: "Echo Agent",
  body: {
    type: "message",
    message: "Hello, agent!",
    agentId: "6b1f0c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e",
    sessionKey: "rental_9c41e0b27a5f4d18b3e6a0c7d2f9e815",
    channel: "API",
    rental: { ref: "rr_5d0e8a47c21f4b9e8a3c6f1d0b7e2a94", ends_at: "2026-12-21T10:00:00.000Z", duration_type: "month" },
  },
};

/**
 * The sample message of an answer sold per message (x402): no rental; the payment's reference and
 * the paying wallet, and a session key per wallet and agent.
 */
export const SAMPLE_PAID_MESSAGE = {
  agentName: SAMPLE_MESSAGE.agentName,
  body: {
    type: "message",
    message: "What is 2 + 2?",
    agentId: SAMPLE_MESSAGE.body.agentId,
    sessionKey: "payer_0f5c2d7e91a84b36c5d0e2f4a7b9c1d3",
    channel: "API",
    rental: null,
    payment: { ref: "mp_8e2a4c6f0b1d4e3fa5c7d9e1f3b5a7c9", payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
  },
};

export const SAMPLE_HEALTH_CHECK = {
  agentName: SAMPLE_MESSAGE.agentName,
  body: { type: "health_check", timestamp: "2026-11-21T10:15:00.000Z", agentId: SAMPLE_MESSAGE.body.agentId },
};

export const WEBHOOK_TOKEN_PLACEHOLDER = "<WEBHOOK_TOKEN>";
const SAMPLE_URL = "https://agent.example.com/hooks/agent";

/** The headers of a message (a health check adds X-Health-Check and has no X-Rental-Ref). */
export function messageHeaders(token = WEBHOOK_TOKEN_PLACEHOLDER): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    "X-Agent-Name": SAMPLE_MESSAGE.agentName,
    "X-Rental-Ref": SAMPLE_MESSAGE.body.rental.ref,
  };
}

/** The headers of a paid answer's message: X-Payment-Ref where a rental's message has X-Rental-Ref. */
export function paidMessageHeaders(token = WEBHOOK_TOKEN_PLACEHOLDER): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    "X-Agent-Name": SAMPLE_PAID_MESSAGE.agentName,
    "X-Payment-Ref": SAMPLE_PAID_MESSAGE.body.payment.ref,
  };
}

export function healthCheckHeaders(token = WEBHOOK_TOKEN_PLACEHOLDER): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    "X-Agent-Name": SAMPLE_HEALTH_CHECK.agentName,
    "X-Health-Check": "true",
  };
}

function httpRequest(headers: Record<string, string>, body: unknown): string {
  const url = new URL(SAMPLE_URL);
  const lines = [`POST ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join("\n")}\n\n${JSON.stringify(body, null, 2)}`;
}

function curl(headers: Record<string, string>, body: unknown): string {
  const lines = [`curl -X POST '${SAMPLE_URL}'`, ...Object.entries(headers).map(([k, v]) => `  -H '${k}: ${v}'`)];
  return `${lines.join(" \\\n")} \\\n  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`;
}

/** A renter's message as it arrives, and the same request as a command to try a webhook with. */
export function messageRequestExamples(): CodeExample[] {
  return [
    { label: "The request", code: httpRequest(messageHeaders(), SAMPLE_MESSAGE.body) },
    { label: "The same request with curl, to try your webhook", code: curl(messageHeaders(), SAMPLE_MESSAGE.body) },
  ];
}

/** The message of an answer someone paid for, as it arrives. */
export function paidMessageRequestExample(): CodeExample {
  return { label: "A paid answer's message", code: httpRequest(paidMessageHeaders(), SAMPLE_PAID_MESSAGE.body) };
}

export function healthCheckRequestExamples(): CodeExample[] {
  return [
    { label: "A health check", code: httpRequest(healthCheckHeaders(), SAMPLE_HEALTH_CHECK.body) },
    { label: "The same check with curl", code: curl(healthCheckHeaders(), SAMPLE_HEALTH_CHECK.body) },
  ];
}

/** Two replies: a plain answer, and rich content (an object is passed on as it is). */
export function replyExamples(): CodeExample[] {
  return [
    { label: "A plain answer", code: `HTTP/1.1 200 OK\nContent-Type: application/json\n\n"Hi! I echo whatever you send me."` },
    {
      label: "Rich content: an object is passed on as it is",
      code: `HTTP/1.1 200 OK\nContent-Type: application/json\n\n${JSON.stringify(
        { text: "Here are two options.", options: ["Summarise", "Translate"] },
        null,
        2,
      )}`,
    },
  ];
}

/** A whole webhook in Node.js and in Python, standard library only: check the token, answer. */
export function minimalWebhooks(): CodeExample[] {
  return [
    {
      label: "Node.js",
      code: `// webhook.mjs — run: WEBHOOK_TOKEN=… node webhook.mjs
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const expected = Buffer.from(\`Bearer \${process.env.WEBHOOK_TOKEN}\`);

createServer(async (req, res) => {
  const given = Buffer.from(req.headers.authorization ?? "");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return res.writeHead(401).end();
  }
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const event = JSON.parse(raw);
  // A health check needs only a 2xx; anything else is a renter's message.
  const reply = event.type === "health_check" ? { ok: true } : \`You said: \${event.message}\`;
  res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(reply));
}).listen(process.env.PORT ?? 8080);`,
    },
    {
      label: "Python",
      code: `# webhook.py — run: WEBHOOK_TOKEN=… python3 webhook.py
import hmac, json, os
from http.server import BaseHTTPRequestHandler, HTTPServer

EXPECTED = f"Bearer {os.environ['WEBHOOK_TOKEN']}".encode()

class Agent(BaseHTTPRequestHandler):
    def do_POST(self):
        given = self.headers.get("Authorization", "").encode()
        if not hmac.compare_digest(given, EXPECTED):
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        # A health check needs only a 2xx; anything else is a renter's message.
        reply = {"ok": True} if event["type"] == "health_check" else f"You said: {event['message']}"
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

HTTPServer(("", int(os.environ.get("PORT", 8080))), Agent).serve_forever()`,
    },
  ];
}

/**
 * The same webhook, checking the Standard Webhooks signature instead of (or beside) the token,
 * with the `standardwebhooks` package: the raw body is verified before it is parsed.
 */
export function signedWebhooks(): CodeExample[] {
  return [
    {
      label: "Node.js",
      code: `// webhook.mjs — npm install standardwebhooks; run: WEBHOOK_SIGNING_SECRET=whsec_… node webhook.mjs
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.WEBHOOK_SIGNING_SECRET);

createServer(async (req, res) => {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  let event;
  try {
    // The raw body, before any parsing: the signature covers its exact bytes. verify also
    // refuses a timestamp more than 5 minutes off, so a recorded call cannot be replayed later.
    event = wh.verify(raw, req.headers);
  } catch {
    return res.writeHead(401).end();
  }
  const reply = event.type === "health_check" ? { ok: true } : \`You said: \${event.message}\`;
  res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(reply));
}).listen(process.env.PORT ?? 8080);`,
    },
    {
      label: "Python",
      code: `# webhook.py — pip install standardwebhooks; run: WEBHOOK_SIGNING_SECRET=whsec_… python3 webhook.py
import json, os
from http.server import BaseHTTPRequestHandler, HTTPServer
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["WEBHOOK_SIGNING_SECRET"])

class Agent(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers["Content-Length"]))
        try:
            event = wh.verify(raw, dict(self.headers))
        except Exception:
            self.send_response(401)
            self.end_headers()
            return
        reply = {"ok": True} if event["type"] == "health_check" else f"You said: {event['message']}"
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

HTTPServer(("", int(os.environ.get("PORT", 8080))), Agent).serve_forever()`,
    },
  ];
}
