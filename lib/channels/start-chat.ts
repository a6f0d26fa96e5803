import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import { channelName } from "@/lib/channels/channel-name";
import { hashChatMoveToken, isChatMoveToken } from "@/lib/channels/chat-move-token";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";
import { claimRentalChat, type MovedFrom } from "@/lib/channels/claim-rental-chat";
import { endedBinding } from "@/lib/channels/ended-binding";
import { findOpenBinding, openUserKey } from "@/lib/channels/find-open-binding";
import { findRentalByMoveToken } from "@/lib/channels/find-rental-by-move-token";
import { queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";
import { formatTimeLeft } from "@/lib/format/time-left";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Channel } from "@/lib/generated/prisma/enums";
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

// What binding needs of the rental, found by its code or by a move command.
// `trial`: a free trial's code (docs/trials.md), which was not bought for a channel: it binds on
// every bot.
type BindableRental = {
  id: string;
  status: string;
  channel: Channel;
  startsAt: Date;
  endsAt: Date;
  trial?: boolean;
  agent: { name: string };
};

/**
 * `/start <code>` on a bot: binds the chat user to the rental and answers with the agent's name
 * and when the rental ends, or says why not (unknown, malformed or ambiguous code, a rental not
 * usable now, bought for another channel, or held by another chat account: the code alone
 * connects only the rental's own chat account, or the first one). `/start <move command>` (made
 * by the renter on the rental's page or the checkout page) moves the rental here from whichever
 * account held it, which is told. A chat user holds one rental per platform: a second start
 * switches and says so. Wrong codes spend from the failure budgets before the lookup, as on the
 * API (lib/ratelimit/with-failure-budgets.ts).
 */
export async function startChat(user: ChatUser, rawCode: string, deps: StartChatDeps = defaultDeps()): Promise<string> {
  const start = botCommand(user.platform, "start");
  const code = rawCode.trim();
  if (!code)
    return `Send ${start} with the rental code you got after paying (for example ${botCommand(user.platform, "start", "1a2b3c4d")}).`;
  const hex = parseRentalCode(code);
  const move = !hex && isChatMoveToken(code);
  if (!hex && !move) {
    return `That is not a rental code. A rental code is 8 or more of the characters 0-9 and a-f, as shown after payment (for example 1a2b3c4d); send ${start} with it.`;
  }
  let rental: BindableRental;
  try {
    // A move command is 128 random bits: guessing one is hopeless, and a wrong one costs one
    // indexed lookup, as any chat message does, so it spends no failure budget.
    rental = hex ? await findRental(user.platform, openUserKey(user), hex, deps) : await findRentalByMoveToken(code, deps.now);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }

  const unusable = rentalUnusableReason(rental, deps.now);
  if (unusable) return unusable;
  if (rental.channel !== user.platform && !rental.trial) return otherChannel(rental.channel, user.platform);

  const previous = await findOpenBinding(user);
  if (previous?.rentalId === rental.id) return `You are already connected to ${rental.agent.name}. ${untilEnd(rental, deps.now)}`;
  let movedFrom: MovedFrom | null;
  try {
    movedFrom = await db.$transaction(async (tx) => {
      const from = await claimRentalChat(tx, rental.id, user, move ? hashChatMoveToken(code) : null, deps.now);
      if (previous)
        await tx.chatBinding.updateMany({
          where: { id: previous.id, endedAt: null },
          data: endedBinding("switched", deps.now),
        });
      const binding = await tx.chatBinding.create({
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
      // The account it moved from is told, queued for the sender with the move itself.
      if (from) {
        const text = `This rental of ${rental.agent.name} was moved to another ${channelName(user.platform)} account from the renter's dashboard or checkout page, so this chat is disconnected from it.`;
        await queueChatNotices([{ target: from, text, idempotencyKey: `chat-moved:${binding.id}` }], tx, deps.now);
      }
      return from;
    });
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    // This chat account started twice at once: the other start holds the binding.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      return `Another start from this account arrived at the same moment. Send ${botCommand(user.platform, "status")} to see what is connected.`;
    throw error;
  }
  const { platform } = user;
  const moved = movedFrom ? " It was moved here from the account that held it, which is told." : "";
  const switched = previous ? ` You were connected to ${previous.rental.agent.name} before; that rental is no longer used here.` : "";
  return (
    `Connected to ${rental.agent.name}.${moved}${switched} ${untilEnd(rental, deps.now)} ` +
    `To talk to the agent, ${howTo(platform)}. ${botCommand(platform, "status")} shows the time left, ${botCommand(platform, "stop")} disconnects.`
  );
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
  return BOT_PLATFORMS[platform].howToChat.afterStart;
}

function otherChannel(bought: string, here: ChatPlatform): string {
  if (bought === "API") {
    return `This rental was bought for the API, not ${channelName(here)}: use the code as the API key (X-API-Key) with POST /api/v1/chat.`;
  }
  return `This rental was bought for ${channelName(bought)}, not ${channelName(here)}: start it with the ${channelName(bought)} bot. The API also works with the same code (X-API-Key with POST /api/v1/chat).`;
}

function inMinutes(decision: RateDecision, now: Date): string {
  const minutes = Math.max(1, Math.ceil((decision.resetAt - now.getTime()) / 60_000));
  return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
}
