// A local stand-in for the chat platforms' APIs (Telegram Bot API, Discord REST, Slack Web API,
// WhatsApp's Cloud API, Teams' Bot Framework, Google Chat), for the tests and `npm run dev`: it
// answers each call as the platform would, enough for the bots, and records every call it receives.
// Point the settings at it:
//   TELEGRAM_API_URL = {url}/telegram   DISCORD_API_URL = {url}/discord   SLACK_API_URL = {url}/slack/
//   WHATSAPP_API_URL = {url}/whatsapp
//   TEAMS_LOGIN_URL = {url}/teams/login   TEAMS_OPENID_METADATA_URL = {url}/teams/v1/.well-known/openidconfiguration
//   (a Teams activity's serviceUrl is {url}/teams/: replies go there)
//   GOOGLE_CHAT_API_URL = {url} (an origin: Google's client drops a path; its calls are /v1/…)
//   GOOGLE_CHAT_CREDENTIALS' token_uri = {url}/google/token
//   (Google's certificates, at a fixed address, are fetched from {url}/google/service_accounts/…:
//   lib/channels/dev/google-certificates.ts)
// Teams' and Google Chat's requests are signed with one local RSA key, `signingKey()`, whose public
// half the mock serves as the Bot Framework's JWKS and as Google's X.509 certificate.
// GET {url}/_calls?since=<n> lists the calls from the n-th on (the /dev/channels page reads it).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEV_GOOGLE_CHAT_KID, DEV_TEAMS_KID, epochSeconds, signJwt } from "../lib/channels/dev/sign-jwt";
import { selfSignedCertificate } from "./self-signed-certificate";

export type PlatformCall = {
  seq: number;
  platform: "Telegram" | "Discord" | "Slack" | "WhatsApp" | "Teams" | "GoogleChat";
  // Telegram and Slack: the method ("sendMessage", "chat.postMessage"); Discord: "<VERB> <path>";
  // WhatsApp: the Graph API edge after the phone number id ("messages"); Teams: "activities" or
  // "token"; Google Chat: the resource posted to ("spaces/…/messages") or "token".
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
  /**
   * Answers the next call of `method` (as recorded: "chat.postMessage", "sendMessage", …) with
   * `status` and `headers` instead of success, once; the call is still recorded.
   */
  failNext(method: string, status: number, headers?: Record<string, string>): void;
  /** The local key (PKCS#8 PEM) Teams' and Google Chat's requests are signed with. */
  signingKey(): string;
  close(): Promise<void>;
};

export async function startChatPlatformMock(port = 0): Promise<ChatPlatformMock> {
  const recorded: PlatformCall[] = [];
  const waiters = new Set<(call: PlatformCall) => void>();
  const failures: Array<{ method: string; status: number; headers: Record<string, string> }> = [];
  let nextMessageId = 1;
  // Made on first use: most users of the mock never sign anything.
  let keys: { privateKey: KeyObject; pem: string; certificate: string } | undefined;
  const signing = () => {
    if (!keys) {
      const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "pem", type: "pkcs8" }).toString();
      const privateKey = createPrivateKey(pem);
      keys = { privateKey, pem, certificate: selfSignedCertificate(privateKey, "chat@system.gserviceaccount.com") };
    }
    return keys;
  };

  const keep = (call: Omit<PlatformCall, "seq">) => {
    const full = { ...call, seq: recorded.length };
    recorded.push(full);
    for (const waiter of waiters) waiter(full);
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://mock");
    // A failure set up for the call this request records answers instead of what it would send.
    let failure: (typeof failures)[number] | undefined;
    const record = (call: Omit<PlatformCall, "seq">) => {
      keep(call);
      const index = failures.findIndex((f) => f.method === call.method);
      if (index >= 0) failure = failures.splice(index, 1)[0];
    };
    const send = (status: number, payload: unknown) =>
      failure
        ? res
            .writeHead(failure.status, { ...failure.headers, "Content-Type": "application/json" })
            .end(JSON.stringify({ ok: false, error: `mock_failure_${failure.status}` }))
        : res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(payload));
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
    const base = `http://${req.headers.host}`;
    // Teams: the Bot Framework's OpenID metadata and keys, Microsoft Entra's token endpoint, and
    // the connector a personal chat's activities are posted to (a serviceUrl of {url}/teams/).
    if (req.method === "GET" && url.pathname === "/teams/v1/.well-known/openidconfiguration") {
      return send(200, {
        issuer: "https://api.botframework.com",
        jwks_uri: `${base}/teams/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (req.method === "GET" && url.pathname === "/teams/v1/.well-known/keys") {
      const jwk = createPublicKey(signing().privateKey).export({ format: "jwk" });
      return send(200, { keys: [{ ...jwk, kid: DEV_TEAMS_KID, use: "sig", alg: "RS256", endorsements: ["msteams"] }] });
    }
    const teamsLogin = /^\/teams\/login\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (teamsLogin && req.method === "POST") {
      record({ platform: "Teams", method: "token", auth: null, body });
      if (body.grant_type !== "client_credentials" || !body.client_id || !body.client_secret)
        return send(400, { error: "invalid_request" });
      const now = epochSeconds();
      const access_token = signJwt(signing().privateKey, DEV_TEAMS_KID, {
        iss: `https://sts.windows.net/${teamsLogin[1]}/`,
        aud: "https://api.botframework.com",
        appid: body.client_id,
        iat: now,
        exp: now + 3600,
      });
      return send(200, { token_type: "Bearer", expires_in: 3600, access_token });
    }
    const teamsMember = /^\/teams\/v3\/conversations\/[^/]+\/members\/([^/]+)$/.exec(url.pathname);
    if (teamsMember && req.method === "GET") return send(200, { id: decodeURIComponent(teamsMember[1]), name: "Teams user" });
    if (/^\/teams\/v3\/conversations\/[^/]+\/activities(\/[^/]+)?$/.test(url.pathname)) {
      record({ platform: "Teams", method: "activities", auth: req.headers.authorization ?? null, body });
      return send(200, { id: `mock-activity-${nextMessageId++}` });
    }
    // Google: chat@system.gserviceaccount.com's certificates, the OAuth token endpoint (the
    // JWT-bearer grant of a service account) and the Chat API's messages.
    if (
      req.method === "GET" &&
      /^\/google\/service_accounts\/v1\/metadata\/x509\/chat(@|%40)system\.gserviceaccount\.com$/.test(url.pathname)
    ) {
      return send(200, { [DEV_GOOGLE_CHAT_KID]: signing().certificate });
    }
    if (req.method === "POST" && url.pathname === "/google/token") {
      record({ platform: "GoogleChat", method: "token", auth: null, body });
      if (body.grant_type !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || String(body.assertion ?? "").split(".").length !== 3)
        return send(400, { error: "invalid_grant" });
      return send(200, { access_token: `ya29.mock-${nextMessageId++}`, token_type: "Bearer", expires_in: 3600 });
    }
    const google = /^\/v1\/(spaces\/[^/]+)\/messages$/.exec(url.pathname);
    if (google && req.method === "POST") {
      record({ platform: "GoogleChat", method: `${google[1]}/messages`, auth: req.headers.authorization ?? null, body });
      const id = nextMessageId++;
      return send(200, {
        ...body,
        name: `${google[1]}/messages/mock-${id}`,
        sender: { name: "users/mock-app", type: "BOT" },
        createTime: new Date().toISOString(),
        space: { name: google[1] },
        thread: { name: `${google[1]}/threads/mock-${id}` },
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
      failures.length = 0;
    },
    failNext: (method, status, headers = {}) => {
      failures.push({ method, status, headers });
    },
    signingKey: () => signing().pem,
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
