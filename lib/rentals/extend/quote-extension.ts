import "server-only";
import { getAddress, type Hex } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { type Extension, extensionTypes } from "@/lib/chain/extension-typed-data";
import { quoteDomain } from "@/lib/chain/quote-typed-data";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/http/api-error";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { DURATION_SECONDS } from "@/lib/rentals/durations";
import { probeBeforeQuote, type QuoteProbe, type QuoteProbeOptions } from "@/lib/rentals/probe-before-quote";

export type ExtensionRequest = { rentalId: string; periods: number; durationType?: DurationType };

export type ExtensionQuote = {
  extension: Extension;
  signature: Hex;
  chainId: number;
  escrow: Hex;
  usdc: Hex;
  durationType: DurationType;
  periods: number;
  /** Where the rental will end once the extension is paid. */
  endsAt: Date;
  probe: QuoteProbe;
};

/** A quote must leave the renter this long to sign and send before the rental ends. */
const MIN_TIME_LEFT_MS = 30_000;

const ORDER: DurationType[] = ["hour", "day", "month"];

/**
 * Prices an extension of a running rental (docs/extend.md) and signs the escrow's Extension:
 * `periods` of the rental's duration type (or a longer one: an hour rental extended by a day) at
 * the listing's price now, plus the 1 USDC fee, once per extension. Refused with 409 and the reason
 * when the rental is disputed, ended or was never paid through the escrow, the listing is offline or
 * no longer sells that duration; and, as a checkout, after the same live check of the webhook
 * (probeBeforeQuote). The Extension names the rental's current end, so it is redeemable once, and
 * its deadline is never past that end.
 */
export async function quoteExtension(
  request: ExtensionRequest,
  now: Date = new Date(),
  options: { probe?: QuoteProbeOptions } = {},
): Promise<ExtensionQuote> {
  const rental = await db.rental.findUnique({ where: { id: request.rentalId }, include: { agent: { include: { owner: true } } } });
  if (!rental) throw new ApiError(404, "Rental not found: check the rental code.");
  const { agent } = rental;
  if (!rental.renterAddress || !rental.createTxHash) {
    throw new ApiError(409, "This rental was not paid through the escrow, so it cannot be extended; rent the agent instead.");
  }
  if (rental.status === "disputed") {
    throw new ApiError(409, "This rental is disputed: it cannot be extended until the dispute is decided.");
  }
  if (rental.status !== "active" || rental.endsAt.getTime() - now.getTime() < MIN_TIME_LEFT_MS) {
    throw new ApiError(409, "This rental has ended (or ends in under 30 seconds): it can no longer be extended; rent the agent again.");
  }
  const durationType = request.durationType ?? rental.durationType;
  if (ORDER.indexOf(durationType) < ORDER.indexOf(rental.durationType)) {
    throw new ApiError(
      409,
      `A ${rental.durationType} rental is extended by ${rental.durationType}s or longer periods, not by ${durationType}s.`,
    );
  }
  if (agent.status !== "available" || !agent.webhookUrlCipher) {
    throw new ApiError(
      409,
      `"${agent.name}" is offline right now (its webhook is not answering or not connected): the rental cannot be extended.`,
    );
  }
  const price = { hour: agent.pricePerHour, day: agent.pricePerDay, month: agent.pricePerMonth }[durationType];
  if (price === null) throw new ApiError(409, `"${agent.name}" is no longer rented per ${durationType}: choose another duration.`);
  const probe = await probeBeforeQuote(agent, options.probe);

  const addedSeconds = DURATION_SECONDS[durationType] * request.periods;
  const addedPrice = price * BigInt(request.periods);
  const deadline = new Date(Math.min(now.getTime() + env.QUOTE_TTL_SECONDS * 1000, rental.endsAt.getTime() - 1000));
  await db.rentalExtension.create({
    data: {
      rentalId: rental.id,
      durationType,
      periods: request.periods,
      addedSeconds,
      addedPriceMicro: addedPrice,
      feeMicro: RENTAL_FEE_MICRO,
      fromEndsAt: rental.endsAt,
      deadline,
    },
  });
  const { config, quoteSigner } = chainClients();
  const extension: Extension = {
    rentalId: rental.escrowId as Hex,
    renter: getAddress(rental.renterAddress),
    addedPrice,
    fee: RENTAL_FEE_MICRO,
    addedSeconds: BigInt(addedSeconds),
    endsAt: BigInt(Math.floor(rental.endsAt.getTime() / 1000)),
    deadline: BigInt(Math.floor(deadline.getTime() / 1000)),
  };
  const signature = await quoteSigner.signTypedData({
    domain: quoteDomain(config.chainId, config.escrow),
    types: extensionTypes,
    primaryType: "Extension",
    message: extension,
  });
  return {
    extension,
    signature,
    chainId: config.chainId,
    escrow: config.escrow,
    usdc: config.usdc,
    durationType,
    periods: request.periods,
    endsAt: new Date(rental.endsAt.getTime() + addedSeconds * 1000),
    probe,
  };
}
