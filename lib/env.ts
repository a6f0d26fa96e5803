import { z } from "zod";

// The only reader of process.env. Every variable is documented in .env.example.
const flag = z
  .enum(["1", "0", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte private key");

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.string().optional(),
  // The server itself when DATABASE_URL names a transaction pooler (PgBouncer, a provider's pooled
  // endpoint): `npm run db:migrate` uses it (scripts/migrate.ts reads it). The app never does.
  DATABASE_DIRECT_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
  // How long an idle pooled connection stays open (pg's idleTimeoutMillis); 0 keeps it.
  DATABASE_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  RATE_LIMIT_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1_000),
  // Failed rental-code lookups per minute across all clients before unfamiliar codes are refused
  // (the breaker against guesses spread over many addresses; docs/api.md).
  FAILED_CODE_LOOKUPS_GLOBAL_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(120),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(120_000).default(30_000),
  ALLOW_PRIVATE_WEBHOOKS: flag,
  TRUST_PROXY: flag,
  VERCEL: flag,
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  APP_URL: z.url().optional(),
  // Vercel Cron sends `Authorization: Bearer <CRON_SECRET>`; cron routes refuse anything else.
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  // POST /v1/chat/completions with stream: true: a comment every this many ms while the webhook
  // thinks (the first one commits the stream; earlier failures keep their own status).
  CHAT_STREAM_KEEPALIVE_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  // How long the marketplace's facet counts and total are kept per filter set (ms); 0 = never.
  // How long a rental found by its code serves the renter API before it is read again (ms); 0 = never.
  RENTAL_LOOKUP_TTL_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  MARKETPLACE_FACETS_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  HEALTH_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(50),
  HEALTH_CHECK_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  // Per-minute availability probes in flight at once (docs/availability.md).
  PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(2_000).default(200),
  // Upstash QStash (docs/operations.md#batches-and-the-queue): with the token and both signing keys
  // set, health-check and probe rounds are cut into batches delivered, signed, to /api/queue/*;
  // without them the batches run in the cron's own process. QSTASH_URL: QStash's API (the client's
  // baseUrl); tests point it at their stand-in (test/qstash-standin.ts).
  QSTASH_TOKEN: z.string().optional(),
  QSTASH_URL: z.url().default("https://qstash.upstash.io"),
  QSTASH_CURRENT_SIGNING_KEY: z.string().optional(),
  QSTASH_NEXT_SIGNING_KEY: z.string().optional(),
  // E-mail: Resend when RESEND_API_KEY is set, otherwise the development outbox.
  RESEND_API_KEY: z.string().optional(),
  // Resend's API (the SDK's baseUrl); tests and local mocks point it at their own server.
  RESEND_BASE_URL: z.url().default("https://api.resend.com"),
  EMAIL_FROM: z.string().default("Agent Rental Service <no-reply@localhost>"),
  // E-mails sent a second at most, across every server (Resend's default limit is 2 requests a
  // second per team; docs/operations.md#sending-e-mails-and-chat-notices).
  EMAIL_SEND_RATE_PER_SECOND: z.coerce.number().min(0.1).max(1_000).default(2),
  // Serve /dev/outbox in production too (a local `npm start`, the Playwright tests). Never on a
  // public deployment: the outbox shows every e-mail, sign-in links included.
  DEV_OUTBOX: flag,
  // Payments (docs/escrow.md). Unset = checkout and the release sweep answer "not configured".
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  CHAIN_RPC_URL: z.url().optional(),
  // The RPC URL browsers get (checkout, disputes); CHAIN_RPC_URL may hold a provider's API key and
  // never leaves the server. Unset = the chain's public endpoint (lib/chain/public-rpc-url.ts).
  CHAIN_PUBLIC_RPC_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  USDC_ADDRESS: address.optional(),
  ESCROW_ADDRESS: address.optional(),
  // Signs EIP-712 quotes (QUOTE_SIGNER_ROLE); sends releases (any key works: release is open).
  QUOTE_SIGNER_PRIVATE_KEY: privateKey.optional(),
  OPERATOR_PRIVATE_KEY: privateKey.optional(),
  // The CLI's `rental:checkout` pays with this key (development and tests).
  RENTER_PRIVATE_KEY: privateKey.optional(),
  // The CLI's `dispute:resolve` decides with this key (it must hold ARBITER_ROLE on the escrow).
  ARBITER_PRIVATE_KEY: privateKey.optional(),
  // Blocks a receipt must be deep before the service counts money as moved (payments, releases,
  // refunds, dispute outcomes); the event reader stays this far back.
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(100).default(1),
  // The most the operator key offers per gas (max fee, gwei) when it signs or re-signs a
  // transaction; above it the sweep waits for the base fee to fall (docs/operations.md).
  CHAIN_MAX_FEE_GWEI: z.coerce.number().min(0.001).max(100_000).default(50),
  // First block the event reader reads (the escrow's deployment block).
  ESCROW_START_BLOCK: z.coerce.bigint().min(0n).default(0n),
  QUOTE_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  // The service's fee on an answer sold per message (x402), in basis points of its price, rounded
  // up to the micro-USDC (docs/pay-per-message.md). 500 = 5 %.
  MESSAGE_FEE_BPS: z.coerce.number().int().min(0).max(10_000).default(500),
  // WalletConnect (Reown) project id from dashboard.reown.com; unset = no WalletConnect button. Not
  // NEXT_PUBLIC_: the rent page hands it to the browser as a prop, so nothing is inlined at build
  // time and a change needs a restart, not a rebuild.
  WALLETCONNECT_PROJECT_ID: z
    .string()
    .regex(/^[0-9a-f]{32}$/i, "must be a WalletConnect (Reown) project id: 32 hexadecimal characters")
    .optional(),
  // Chat channels (docs/channels.md): the service's own bots. A platform whose settings are not all
  // set is not offered (checkout, listing form) and its route answers 404. The *_API_URL settings
  // point the bots at a local mock in development and tests.
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, "must be a bot token from @BotFather (<id>:<secret>)")
    .optional(),
  // The secret_token given to setWebhook; Telegram sends it back in X-Telegram-Bot-Api-Secret-Token.
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,256}$/, "must be 16-256 characters of A-Z, a-z, 0-9, _ and -")
    .optional(),
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^\w{5,32}$/, "must be the bot's username, without @")
    .optional(),
  TELEGRAM_API_URL: z.url().default("https://api.telegram.org"),
  DISCORD_APPLICATION_ID: z
    .string()
    .regex(/^\d{5,25}$/, "must be the application's numeric id")
    .optional(),
  DISCORD_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be the application's public key (64 hex characters)")
    .optional(),
  DISCORD_BOT_TOKEN: z.string().optional(),
  DISCORD_API_URL: z.url().default("https://discord.com/api/v10"),
  SLACK_SIGNING_SECRET: z.string().optional(),
  // "Add to Slack" for renters' workspaces; each workspace's bot token is stored encrypted.
  SLACK_CLIENT_ID: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  // One workspace (and tests): this bot token is used for every team instead of the stored ones.
  SLACK_BOT_TOKEN: z.string().optional(),
  // The app's id (Basic Information → App ID): with one workspace, the checkout's link to the
  // app's direct messages there (https://slack.com/app_redirect?app=…).
  SLACK_APP_ID: z
    .string()
    .regex(/^A[A-Z0-9]{6,20}$/, "must be the Slack app's id (Basic Information → App ID), such as A0123ABCDEF")
    .optional(),
  SLACK_API_URL: z.url().default("https://slack.com/api/"),
  // WhatsApp Cloud API (Meta): the system user's token, the app secret Meta signs webhooks with
  // (X-Hub-Signature-256), the business number's id, the token the webhook's verification GET
  // must echo, and the Graph API's base URL. WHATSAPP_PHONE_NUMBER (public, digits only) is the
  // number renters message: the checkout's wa.me link. All five are needed for the bot to run.
  WHATSAPP_ACCESS_TOKEN: z.string().optional(),
  WHATSAPP_APP_SECRET: z.string().optional(),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .regex(/^\d{5,25}$/, "must be the business phone number's id (digits), not the number itself")
    .optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(8, "must be at least 8 characters").optional(),
  WHATSAPP_PHONE_NUMBER: z
    .string()
    .regex(/^\d{6,15}$/, "must be the business number in international format, digits only (no +, spaces or dashes)")
    .optional(),
  WHATSAPP_API_URL: z.url().default("https://graph.facebook.com"),
  // Microsoft Teams (an Azure Bot, @chat-adapter/teams): the bot's Microsoft App ID and client
  // secret, its tenant (single-tenant bots), and TEAMS_API_URL, the adapter's override of every
  // activity's serviceUrl (leave it unset: replies go where each activity came from). Our two base
  // URLs: Microsoft Entra's login (the bot's client-credentials token) and the Bot Framework's
  // OpenID metadata (the keys the requests Teams sends are signed with).
  TEAMS_APP_ID: z
    .string()
    .regex(/^[0-9a-fA-F-]{36}$/, "must be the bot's Microsoft App ID (a GUID)")
    .optional(),
  TEAMS_APP_PASSWORD: z.string().optional(),
  TEAMS_APP_TENANT_ID: z
    .string()
    .regex(/^[0-9a-fA-F-]{36}$/, "must be the Microsoft Entra tenant id (a GUID)")
    .optional(),
  TEAMS_API_URL: z.url().optional(),
  TEAMS_LOGIN_URL: z.url().default("https://login.microsoftonline.com"),
  TEAMS_OPENID_METADATA_URL: z.url().default("https://login.botframework.com/v1/.well-known/openidconfiguration"),
  // Google Chat (a Chat app with an HTTP endpoint, @chat-adapter/gchat): the Cloud project's number
  // (the audience of the tokens Google Chat signs its requests with), the app's user id
  // ("users/…"), its service account key (the JSON file Google Cloud gives; its token_uri is
  // where the app's tokens come from) and the Chat API's base URL.
  GOOGLE_CHAT_PROJECT_NUMBER: z
    .string()
    .regex(/^\d{6,20}$/, "must be the Google Cloud project number (digits)")
    .optional(),
  GOOGLE_CHAT_BOT_USER_ID: z
    .string()
    .regex(/^users\/\S+$/, "must be the Chat app's user id, such as users/1234567890")
    .optional(),
  GOOGLE_CHAT_CREDENTIALS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be the service account key's JSON" });
        return z.NEVER;
      }
    })
    .pipe(
      z.object(
        { client_email: z.email(), private_key: z.string().includes("PRIVATE KEY"), token_uri: z.url() },
        { error: "must be a service account key with client_email, private_key and token_uri" },
      ),
    )
    .optional(),
  GOOGLE_CHAT_API_URL: z
    .url()
    .refine((url) => new URL(url).pathname === "/", "must be an origin without a path (Google's client replaces the path)")
    .default("https://chat.googleapis.com"),
  // Development only (`npm run dev` sets them): the local platform mock, and the Ed25519 key the
  // /dev/channels page signs Discord interactions with (PKCS#8 DER, base64).
  DEV_PLATFORM_MOCK_URL: z.url().optional(),
  DEV_DISCORD_PRIVATE_KEY: z.string().optional(),
  // The RSA key (PKCS#8 PEM) the page signs Teams' and Google Chat's tokens with; the platform
  // mock serves its public half as their OpenID keys and X.509 certificates.
  DEV_CHAT_SIGNING_KEY: z.string().optional(),
  // Keyring for secrets at rest: "id:base64key[,id:base64key…]"; the first key encrypts.
  SECRET_BOX_KEYS: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

function parseEnv(source: NodeJS.ProcessEnv): Env {
  // An empty value (`NAME=` in .env) means "not set", as it does to a person reading the file.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = schema.safeParse(given);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);

// NODE_ENV as it was given, without the "development" default: null when unset. What must never
// run against a production database (the CLI's unpaid rentals) requires it to be set explicitly.
export const explicitNodeEnv: Env["NODE_ENV"] | null = process.env.NODE_ENV ? env.NODE_ENV : null;

export function appUrl(): string {
  return env.APP_URL ?? `http://localhost:${env.PORT}`;
}
