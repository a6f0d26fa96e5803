import "server-only";
import { env } from "@/lib/env";

// Where e-mails go: Resend when RESEND_API_KEY is set, otherwise the development outbox (the row
// itself, the console and /dev/outbox). Tests pass a Resend transport aimed at a local server.
export type EmailTransport = ResendTransport | { kind: "outbox" };
export type ResendTransport = { kind: "resend"; apiKey: string; from: string; baseUrl: string };

export function emailTransportFromEnv(): EmailTransport {
  if (!env.RESEND_API_KEY) return { kind: "outbox" };
  return { kind: "resend", apiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM, baseUrl: env.RESEND_BASE_URL };
}
