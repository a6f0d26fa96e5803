import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";
import { findOpenBinding, openUserKey } from "@/lib/channels/find-open-binding";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";
import { formatTimeLeft } from "@/lib/format/time-left";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { type KnownCredentials, rentalCodeDigest } from "@/lib/ratelimit/known-credentials";
import { knownCredentials, limiters } from "@/lib/ratelimit/policies";
import type { RateDecision, RateLimiter } from "@/lib/ratelimit/rate-limiter";
import { withFailureBudgets } from "@/lib/ratelimit/with-failure-budgets";
import { findRentalByCode, type RentalLookup, type RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { parseRentalCode } from "@/lib/rentals/parse-rental-code";

export type StartChatDeps = {
  lookup: (hexPrefix: string) => Promise<RentalLookup>;
  // Failed attempts per chat user, and per platform across all its users.
  perUser: RateLimiter;
  perPlatform: RateLimiter;
  known: KnownCredentials;
  now: Date;
};

const defaultDeps = (): StartChatDeps => ({
  lookup: findRentalByCode,
  perUser: limiters().chatStartFailure,
  perPlatform: limiters().chatStartFailurePlatform,
  known: knownCredentials(),
  now: new Date(),
});

/**
 * `/start <code>` on a bot: binds the chat user to the rental and answers with the agent's name
 * and when the rental ends, or says why not (unknown, malformed or ambiguous code, a rental not
 * usable now, bought for another channel, or held by another chat user). A chat user holds one
 * rental per platform: a second start switches and says so. Wrong codes spend from the failure
 * budgets before the lookup, as on the API (lib/ratelimit/with-failure-budgets.ts).
 */
export async function startChat(user: ChatUser, rawCode: string, deps: StartChatDeps = defaultDeps()): Promise<string> {
  const start = botCommand(user.platform, "start");
  const code = rawCode.trim();
  if (!code)
    return `Send ${start} with the rental code you got after paying (for example ${botCommand(user.platform, "start", "1a2b3c4d")}).`;
  const hex = parseRentalCode(code);
  if (!hex) {
    return `That is not a rental code. A rental code is 8 or more of the characters 0-9 and a-f, as shown after payment (for example 1a2b3c4d); send ${start} with it.`;
  }
  let rental: RentalWithAgent;
  try {
    rental = await findRental(user.platform, openUserKey(user), hex, deps);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }

  const unusable = rentalUnusableReason(rental, deps.now);
  if (unusable) return unusable;
  if (rental.channel !== user.platform) return otherChannel(rental.channel, user.platform);

  const previous = await findOpenBinding(user);
  if (previous?.rentalId === rental.id) return `You are already connected to ${rental.agent.name}. ${untilEnd(rental, deps.now)}`;
  try {
    await db.$transaction(async (tx) => {
      if (previous)
        await tx.chatBinding.updateMany({
          where: { id: previous.id, endedAt: null },
          data: ended("switched", deps.now),
        });
      await tx.chatBinding.create({
        data: {
          platform: user.platform,
          chatUser: user.id,
          chatId: user.chatId,
          chatLabel: user.label,
          rentalId: rental.id,
          openUser: openUserKey(user),
          openRentalId: rental.id,
        },
      });
    });
  } catch (error) {
    // The rental is held by another chat user (or this user started twice at once).
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return heldElsewhere(user.platform);
    throw error;
  }
  const switched = previous ? ` You were connected to ${previous.rental.agent.name} before; that rental is no longer used here.` : "";
  const { platform } = user;
  return (
    `Connected to ${rental.agent.name}.${switched} ${untilEnd(rental, deps.now)} ` +
    `To talk to the agent, ${howTo(platform)}. ${botCommand(platform, "status")} shows the time left, ${botCommand(platform, "stop")} disconnects.`
  );
}

/** The binding's end, as written to chat_bindings (the open_* columns freed). */
export function ended(reason: "stopped" | "switched" | "disconnected" | "rental_ended", now: Date) {
  return { endedAt: now, endReason: reason, openUser: null, openRentalId: null };
}

async function findRental(platform: ChatPlatform, userKey: string, hex: string, deps: StartChatDeps): Promise<RentalWithAgent> {
  return withFailureBudgets({
    digest: rentalCodeDigest(hex),
    known: deps.known,
    budgets: [
      {
        limiter: deps.perUser,
        key: userKey,
        refused: (d) => new ApiError(429, `Too many wrong rental codes from your account. Try again ${inMinutes(d, deps.now)}.`),
      },
      {
        limiter: deps.perPlatform,
        key: platform,
        refused: (d) =>
          new ApiError(
            429,
            `Too many wrong rental codes are being tried on this bot right now. Try again ${inMinutes(d, deps.now)}; codes already in use keep working.`,
          ),
      },
    ],
    attempt: async () => {
      const lookup = await deps.lookup(hex);
      if (lookup.kind === "found")
        return {
          ok: true,
          value: lookup.rental,
          rememberForMs: lookup.rental.endsAt.getTime() - deps.now.getTime() + 86_400_000,
        };
      if (lookup.kind === "ambiguous") {
        return {
          ok: false,
          error: new ApiError(400, "This code matches more than one rental. Send more characters of your rental code."),
        };
      }
      return {
        ok: false,
        error: new ApiError(401, "No rental has this code. Check it against the code shown after payment."),
      };
    },
  });
}

function untilEnd(rental: { endsAt: Date }, now: Date): string {
  return `The rental ends ${formatDateTime(rental.endsAt)} (${formatTimeLeft(rental.endsAt.getTime() - now.getTime())} left).`;
}

function howTo(platform: ChatPlatform): string {
  switch (platform) {
    case "Telegram":
      return "just send a message here";
    case "Discord":
      return "use /chat message:<your message>";
    case "Slack":
      return "send a direct message to this app";
  }
}

function otherChannel(bought: string, here: ChatPlatform): string {
  if (bought === "API") {
    return `This rental was bought for the API, not ${here}: use the code as the API key (X-API-Key) with POST /api/v1/chat.`;
  }
  return `This rental was bought for ${bought}, not ${here}: start it with the ${bought} bot. The API also works with the same code (X-API-Key with POST /api/v1/chat).`;
}

function heldElsewhere(platform: ChatPlatform): string {
  return (
    `This rental is connected to another ${platform} account. To move it here, send ${botCommand(platform, "stop")} from that account, ` +
    `or use "Disconnect chat" on the rental's page in your dashboard, then start again.`
  );
}

function inMinutes(decision: RateDecision, now: Date): string {
  const minutes = Math.max(1, Math.ceil((decision.resetAt - now.getTime()) / 60_000));
  return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
}
