// A local stand-in for the chat platforms' APIs (Telegram Bot API, Discord REST, Slack Web API,
// WhatsApp's Cloud API), for the tests and `npm run dev`: it answers each call as the platform
// would, enough for the bots, and records every call it receives. Point the settings at it:
//   TELEGRAM_API_URL = {url}/telegram   DISCORD_API_URL = {url}/discord   SLACK_API_URL = {url}/slack/
//   WHATSAPP_API_URL = {url}/whatsapp
// GET {url}/_calls?since=<n> lists the calls from the n-th on (the /dev/channels page reads it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type PlatformCall = {
  seq: number;
  platform: "Telegram" | "Discord" | "Slack" | "WhatsApp";
  // Telegram and Slack: the method ("sendMessage", "chat.postMessage"); Discord: "<VERB> <path>";
  // WhatsApp: the Graph API edge after the phone number id ("messages").
  method: string;
  // The token the call carried (Telegram: from the path; Discord: "Bot …"; Slack: "Bearer …").
  auth: string | null;
  body: Record<string, unknown>;
};

export type ChatPlatformMock = {
  url: string;
  calls(): PlatformCall[];
  /** Resolves with the first call (from now on, or already made) that matches; rejects after `timeoutMs`. */
  waitFor(match: (call: PlatformCall) => boolean, timeoutMs?: number): Promise<PlatformCall>;
  reset(): void;
  close(): Promise<void>;
};

export async function startChatPlatformMock(port = 0): Promise<ChatPlatformMock> {
  const recorded: PlatformCall[] = [];
  const waiters = new Set<(call: PlatformCall) => void>();
  let nextMessageId = 1;

  const record = (call: Omit<PlatformCall, "seq">) => {
    const full = { ...call, seq: recorded.length };
    recorded.push(full);
    for (const waiter of waiters) waiter(full);
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://mock");
    const send = (status: number, payload: unknown) =>
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
    const body = parseBody(raw, req.headers["content-type"]);

    if (req.method === "GET" && url.pathname === "/_calls") {
      return send(200, recorded.slice(Number(url.searchParams.get("since") ?? 0)));
    }
    const telegram = /^\/telegram\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (telegram) {
      const [, token, method] = telegram;
      record({ platform: "Telegram", method, auth: token, body });
      const result =
        method === "sendMessage"
          ? {
              message_id: nextMessageId++,
              date: Math.floor(Date.now() / 1000),
              chat: { id: Number(body.chat_id), type: "private" },
              text: body.text,
            }
          : method === "getMe"
            ? { id: 1, is_bot: true, first_name: "Agent Rental", username: "agent_rental_bot" }
            : true;
      return send(200, { ok: true, result });
    }
    if (url.pathname.startsWith("/discord/")) {
      const path = url.pathname.slice("/discord".length);
      record({ platform: "Discord", method: `${req.method} ${path}`, auth: req.headers.authorization ?? null, body });
      if (req.method === "POST" && path === "/users/@me/channels") return send(200, { id: `dm-${String(body.recipient_id)}`, type: 1 });
      if (req.method === "PUT" && /^\/applications\/[^/]+\/commands$/.test(path)) return send(200, Array.isArray(body) ? body : []);
      return send(200, { id: String(nextMessageId++), content: body.content ?? "" });
    }
    const slack = /^\/slack\/([\w.]+)$/.exec(url.pathname);
    if (slack) {
      const method = slack[1];
      record({ platform: "Slack", method, auth: req.headers.authorization ?? null, body });
      if (method === "conversations.open")
        return send(200, { ok: true, channel: { id: `D${String(body.users ?? "").replace(/\W/g, "")}` } });
      if (method === "oauth.v2.access") {
        return send(200, {
          ok: true,
          access_token: "xoxb-mock-installed",
          bot_user_id: "UBOTMOCK",
          team: { id: "TMOCK", name: "Mock workspace" },
        });
      }
      return send(200, { ok: true, channel: body.channel, ts: `${Date.now() / 1000}` });
    }
    // The Cloud API: POST /{version}/{phone number id}/messages with the system user's token.
    const whatsapp = /^\/whatsapp\/v[\d.]+\/(\d+)\/(\w+)$/.exec(url.pathname);
    if (whatsapp && req.method === "POST") {
      record({ platform: "WhatsApp", method: whatsapp[2], auth: req.headers.authorization ?? null, body });
      // Marking a message read (with the typing indicator) is answered with success only.
      if (body.status === "read") return send(200, { success: true });
      const to = String(body.to ?? "");
      return send(200, {
        messaging_product: "whatsapp",
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.mock${nextMessageId++}` }],
      });
    }
    send(404, { ok: false, error: "unknown_method" });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${bound}`,
    calls: () => [...recorded],
    waitFor: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const found = recorded.find(match);
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching platform call within ${timeoutMs} ms; calls: ${JSON.stringify(recorded.map((c) => c.method))}`));
        }, timeoutMs);
        const waiter = (call: PlatformCall) => {
          if (!match(call)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(call);
        };
        waiters.add(waiter);
      }),
    reset: () => {
      recorded.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// JSON, or a form body (Slack's Web API accepts both); anything else is kept as text.
function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { text: raw };
  }
}
