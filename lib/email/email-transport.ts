import "server-only";
import { resendPacer, type SendPacer } from "@/lib/email/send-pacer";
import { env } from "@/lib/env";

// Where e-mails go: Resend when RESEND_API_KEY is set, otherwise the development outbox (the row
// itself, the console and /dev/outbox). Tests pass a Resend transport aimed at a local server.
export type EmailTransport = ResendTransport | { kind: "outbox" };
export type ResendTransport = {
  kind: "resend";
  apiKey: string;
  from: string;
  baseUrl: string;
  /** Sends a second at most, by every server together (EMAIL_SEND_RATE_PER_SECOND unless given). */
  ratePerSecond?: number;
};

export function emailTransportFromEnv(): EmailTransport {
  if (!env.RESEND_API_KEY) return { kind: "outbox" };
  return {
    kind: "resend",
    apiKey: env.RESEND_API_KEY,
    from: env.EMAIL_FROM,
    baseUrl: env.RESEND_BASE_URL,
    ratePerSecond: env.EMAIL_SEND_RATE_PER_SECOND,
  };
}

/** The transport's share of Resend's rate limit (one per API key). */
export function pacerOf(transport: ResendTransport): SendPacer {
  return resendPacer(transport.apiKey, transport.ratePerSecond ?? env.EMAIL_SEND_RATE_PER_SECOND);
}
