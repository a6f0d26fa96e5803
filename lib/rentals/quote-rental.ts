import "server-only";
import { type Address, getAddress } from "viem";
import { newAuthToken } from "@/lib/auth/auth-token";
import { chainClients } from "@/lib/chain/chain-clients";
import { type Quote, quoteDomain, quoteTypes } from "@/lib/chain/quote-typed-data";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/http/api-error";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { DURATION_SECONDS } from "@/lib/rentals/durations";
import { newRentalId } from "@/lib/rentals/new-rental-id";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { probeBeforeQuote, type QuoteProbeOptions } from "@/lib/rentals/probe-before-quote";

// The channel bought (checkout's four): never "A2A", an access protocol every listing has.
export type QuoteRequest = { agentId: string; durationType: DurationType; channel: CheckoutChannel; renter: Address };

// Prices a rental and signs the quote the escrow contract checks. The rental is stored as
// `pending` (invisible to /v1) until the chain shows it paid; its times are then the chain's.
// The quote names the rental by a random escrow id, never by its id (the code's source), and
// comes with a claim secret: confirm hands the code only to whoever shows it (or the paying
// wallet, signed in), since the payment's transaction hash is public. Before anything is written
// or signed, the agent's webhook is checked live (probeBeforeQuote): one that does not answer
// refuses the quote with 409 and takes the agent offline, so nobody pays for an agent that is down.
export async function quoteRental(request: QuoteRequest, now: Date = new Date(), options: { probe?: QuoteProbeOptions } = {}) {
  const { config, quoteSigner } = chainClients();
  const agent = await db.agent.findUnique({ where: { id: request.agentId }, include: { owner: true } });
  if (!agent) throw new ApiError(404, "No such agent.");
  if (agent.status !== "available" || !agent.webhookUrlCipher) {
    throw new ApiError(409, `"${agent.name}" is not available for rent right now (its webhook is offline or not connected).`);
  }
  const price = { hour: agent.pricePerHour, day: agent.pricePerDay, month: agent.pricePerMonth }[request.durationType];
  if (price === null) throw new ApiError(409, `"${agent.name}" cannot be rented per ${request.durationType}: it has no such price.`);
  if (!agent.channels.includes(request.channel)) {
    throw new ApiError(409, `"${agent.name}" does not support ${request.channel} (it supports ${agent.channels.join(", ")}).`);
  }
  if (request.channel !== "API" && !isChannelConfigured(request.channel)) {
    throw new ApiError(409, `This service does not run a ${request.channel} bot right now; choose another channel (the API always works).`);
  }
  if (!agent.owner.walletAddress) throw new ApiError(409, `"${agent.name}" cannot be rented yet: its owner has no payout wallet.`);
  const renter = getAddress(request.renter);
  const probe = await probeBeforeQuote(agent, options.probe);

  const renterAccount = await db.account.upsert({
    where: { walletAddress: renter.toLowerCase() },
    create: { walletAddress: renter.toLowerCase() },
    update: {},
  });
  const id = await newRentalId();
  const keys = newRentalKeys();
  const claim = newAuthToken();
  const seconds = DURATION_SECONDS[request.durationType];
  const deadline = new Date(now.getTime() + env.QUOTE_TTL_SECONDS * 1000);
  await db.rental.create({
    data: {
      id,
      ...keys,
      claimSecretHash: claim.hash,
      agentId: agent.id,
      renterId: renterAccount.id,
      status: "pending",
      durationType: request.durationType,
      channel: request.channel,
      // Provisional: replaced by the block times when the payment is confirmed.
      startsAt: now,
      endsAt: new Date(now.getTime() + seconds * 1000),
      priceMicro: price,
      feeMicro: RENTAL_FEE_MICRO,
      guaranteePermille: agent.guaranteePermille,
      renterAddress: renter.toLowerCase(),
      payoutAddress: agent.owner.walletAddress,
      quoteDeadline: deadline,
    },
  });

  const quote: Quote = {
    rentalId: keys.escrowId,
    renter,
    owner: getAddress(agent.owner.walletAddress),
    price,
    fee: RENTAL_FEE_MICRO,
    duration: BigInt(seconds),
    deadline: BigInt(Math.floor(deadline.getTime() / 1000)),
  };
  const signature = await quoteSigner.signTypedData({
    domain: quoteDomain(config.chainId, config.escrow),
    types: quoteTypes,
    primaryType: "Quote",
    message: quote,
  });
  return {
    rentalId: id,
    claimSecret: claim.token,
    quote,
    signature,
    chainId: config.chainId,
    escrow: config.escrow,
    usdc: config.usdc,
    probe,
  };
}
