import "server-only";
import { env } from "@/lib/env";
import { formatCount, formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { formatUsdc } from "@/lib/format/usdc";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { policies } from "@/lib/ratelimit/policies";
import { probeTimeoutMs } from "@/lib/rentals/probe-before-quote";
import { MESSAGE_MAX_CHARS } from "@/lib/schemas/renter-api";

// The figures the docs pages state, in words, read from the code and settings that enforce them,
// so a page never promises a limit the service does not keep.
export function serviceLimits() {
  const seconds = (ms: number) => plural(Math.round(ms / 1000), "second");
  return {
    renterRequestsPerMinute: formatCount(policies.renterApi.maxTokens),
    ownerRequestsPerMinute: formatCount(policies.ownerApi.maxTokens),
    messageMaxChars: formatCount(MESSAGE_MAX_CHARS),
    replyTimeout: seconds(env.WEBHOOK_TIMEOUT_MS),
    healthCheckTimeout: seconds(env.HEALTH_CHECK_TIMEOUT_MS),
    // The check right before a quote: the same setting, never over 10 s (a renter is waiting).
    checkoutCheckTimeout: seconds(probeTimeoutMs()),
    fee: formatUsdc(RENTAL_FEE_MICRO),
    // The fee on an answer sold per message: a share of its price (MESSAGE_FEE_BPS, rounded up).
    messageFee: formatPercent(env.MESSAGE_FEE_BPS / 100),
  };
}
