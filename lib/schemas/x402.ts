import { z } from "zod";

// Answers sold per message over x402 (docs/pay-per-message.md): the answer, and the x402 v2
// objects as this service sends them (the 402's PaymentRequired, the settlement of
// PAYMENT-RESPONSE) and receives them (the PaymentPayload of PAYMENT-SIGNATURE). The objects are
// built by @x402/core; these schemas describe them for /api/v1/openapi.json and its tests.

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const atomic = z.string().regex(/^\d+$/);

export const paidAnswerResponseSchema = z
  .object({
    response: z
      .unknown()
      .meta({ description: "Exactly what the agent's webhook returned: usually a string, can be an object or rich content." }),
    agent: z.object({ id: z.uuid(), name: z.string() }),
  })
  .strict()
  .meta({ id: "PaidAnswerResponse" });

export const paymentRequirementsSchema = z
  .object({
    scheme: z.literal("exact").meta({ description: "An EIP-3009 transferWithAuthorization of exactly `amount`." }),
    network: z
      .string()
      .regex(/^eip155:\d+$/)
      .meta({ description: "The chain, as CAIP-2 (eip155:8453 is Base)." }),
    amount: atomic.meta({ description: "Price + fee in micro-USDC (the token's 6 decimals): what the authorization must transfer." }),
    asset: address.meta({ description: "The USDC contract." }),
    payTo: address.meta({ description: "The escrow contract: the authorization's `to`." }),
    maxTimeoutSeconds: z.int().meta({ description: "How long the authorization must stay valid from its signing: 300." }),
    extra: z
      .object({ name: z.string(), version: z.string() })
      .meta({ description: "The token's EIP-712 domain name and version, which the authorization is signed on." }),
  })
  .meta({ id: "PaymentRequirements" });

export const paymentRequiredSchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().meta({
      description:
        "`Payment required` when no payment was sent; otherwise why the payment sent cannot be used, e.g. `insufficient_funds: …`, `invalid_exact_evm_nonce_already_used: …`, a `valid_before` reason for an expired one, or `Payment settlement failed: …`.",
    }),
    resource: z.object({
      url: z.url().meta({ description: "What is sold: this endpoint for the agent." }),
      description: z.string().meta({ description: "One answer from the agent: its price and the fee, paid only if it answers." }),
      mimeType: z.literal("application/json"),
    }),
    accepts: z.array(paymentRequirementsSchema).length(1).meta({ description: "The one way to pay." }),
  })
  .meta({ id: "PaymentRequired" });

export const paymentPayloadSchema = z
  .object({
    x402Version: z.literal(2),
    resource: z.object({ url: z.string() }).loose().optional(),
    accepted: paymentRequirementsSchema.meta({ description: "The requirements paid, as the 402 gave them." }),
    payload: z.object({
      signature: z
        .string()
        .regex(/^0x[0-9a-fA-F]{130}$/)
        .meta({ description: "The payer's 65-byte signature of the authorization." }),
      authorization: z.object({
        from: address.meta({ description: "The paying wallet." }),
        to: address.meta({ description: "The escrow (`payTo`)." }),
        value: atomic.meta({ description: "Exactly `amount`." }),
        validAfter: atomic,
        validBefore: atomic,
        nonce: z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/)
          .meta({ description: "A random bytes32, used once." }),
      }),
    }),
  })
  .meta({ id: "PaymentPayload" });

export const settlementSchema = z
  .object({
    success: z.boolean(),
    transaction: z.string().meta({ description: "The escrow's payForMessage transaction hash; empty when the settlement failed." }),
    network: z.string().regex(/^eip155:\d+$/),
    payer: address.optional(),
    amount: atomic.optional().meta({ description: "Micro-USDC settled: price + fee." }),
    errorReason: z.string().optional().meta({ description: "Why the settlement failed (success false)." }),
  })
  .meta({ id: "PaymentResponse" });
