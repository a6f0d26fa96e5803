import "server-only";
import { Client, Receiver } from "@upstash/qstash";
import { appUrl, env } from "@/lib/env";

/** The work the queue carries: each kind is delivered to its own route, /api/queue/<kind>. */
export type BatchKind = "health-checks" | "probe-rentals";

/**
 * QStash delivers the batches when its token and both signing keys are set (docs/operations.md);
 * otherwise they run in the cron's own process. The keys are needed to verify deliveries: a
 * token alone would publish batches that the batch routes could only refuse.
 */
export function queueConfigured(): boolean {
  return Boolean(env.QSTASH_TOKEN && env.QSTASH_CURRENT_SIGNING_KEY && env.QSTASH_NEXT_SIGNING_KEY);
}

/** Where QStash delivers a kind's batches: this app's public URL (APP_URL), the JWT's `sub`. */
export function queueDestination(kind: BatchKind): string {
  return new URL(`/api/queue/${kind}`, appUrl()).toString();
}

let client: Client | undefined;
let receiver: Receiver | undefined;

// devMode: false, always: the client would otherwise switch to its local development server
// (and its published keys) whenever QSTASH_DEV is set in the environment.
export function qstashClient(): Client {
  client ??= new Client({ token: env.QSTASH_TOKEN, baseUrl: env.QSTASH_URL, devMode: false, enableTelemetry: false });
  return client;
}

/**
 * Whether a delivery is QStash's: the `Upstash-Signature` JWT verifies (HS256) under the current or
 * the next signing key, is in date, names this kind's destination URL and the SHA-256 of exactly
 * these body bytes. Never throws.
 */
export async function verifyQueueDelivery(kind: BatchKind, signature: string, body: string): Promise<boolean> {
  receiver ??= new Receiver({
    currentSigningKey: env.QSTASH_CURRENT_SIGNING_KEY,
    nextSigningKey: env.QSTASH_NEXT_SIGNING_KEY,
    devMode: false,
  });
  try {
    return await receiver.verify({ signature, body, url: queueDestination(kind) });
  } catch {
    return false;
  }
}
