// The operators' dispute commands (docs/disputes.md): what waits for a decision, and a decision
// sent with the arbiter's key (which loads the chain client when it runs, not when the CLI starts:
// scripts/cli-commands.ts).

import { z } from "zod";
import { listOpenDisputes } from "@/lib/disputes/list-disputes";
import { loadDisputeEvidence } from "@/lib/disputes/load-dispute-evidence";
import { env } from "@/lib/env";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { usdcInputValue } from "@/lib/format/usdc";
import { usdcToMicro } from "@/lib/money/usdc";
import { RENTAL_REF } from "@/lib/rentals/rental-ref";
import type { Flags } from "./cli-commands";

type Command = { usage: string; run(flags: Flags): Promise<unknown> };

export const disputeCommands: Record<string, Command> = {
  "dispute:list": {
    usage: "dispute:list   (open disputes, oldest first, with the owner's answer, the evidence and the suggested refund)",
    async run(flags) {
      z.object({}).strict().parse(flags);
      const now = new Date();
      const disputes = await listOpenDisputes();
      return Promise.all(
        disputes.map(async ({ rental, ...dispute }) => {
          const evidence = await loadDisputeEvidence(rental, now);
          return {
            // The reference and the paying wallet, as the console shows them: never the id,
            // whose first characters are the renter's code.
            rental: rental.ref,
            renter: rental.renterAddress,
            agent: rental.agent.name,
            opened_at: dispute.openedAt.toISOString(),
            age_hours: Math.floor((now.getTime() - dispute.openedAt.getTime()) / 3_600_000),
            reason: disputeReasonLabel(dispute.reason),
            details: dispute.details,
            // The owner's own words (null: not answered); printed as JSON, so as text.
            owner_answer: dispute.ownerAnswer,
            owner_answered_at: dispute.ownerAnsweredAt?.toISOString() ?? null,
            price_usdc: usdcInputValue(rental.priceMicro),
            downtime_minutes: Math.round(evidence.downtimeMs / 60_000),
            health_checks: { total: evidence.checksTotal, failed: evidence.checksFailed },
            messages: { total: evidence.callsTotal, failed: evidence.callsFailed, median_ms: evidence.medianMs },
            suggested_refund_usdc: usdcInputValue(evidence.suggestedRefundMicro) || "0",
          };
        }),
      );
    },
  },
  "dispute:resolve": {
    usage: "dispute:resolve --rental <rr_…> --refund <USDC>   (0 releases to the owner; the price refunds in full, fee included)",
    async run(flags) {
      const input = z
        .object({
          rental: z.string().regex(RENTAL_REF, { error: "must be a rental reference (rr_ and 32 characters), as dispute:list shows it" }),
          refund: z.string({ error: "is required: the USDC to return to the renter (0 to the price)" }).transform((value, ctx) => {
            const micro = usdcToMicro(value);
            if (micro === null) ctx.addIssue({ code: "custom", message: "must be a USDC amount such as 1.5, with at most 6 decimals" });
            return micro ?? 0n;
          }),
        })
        .strict()
        .parse(flags);
      if (!env.ARBITER_PRIVATE_KEY) throw new Error("ARBITER_PRIVATE_KEY is not set: the decision is sent with the arbiter's key.");
      const { resolveDisputeWithKey } = await import("@/lib/disputes/resolve-dispute-with-key");
      return resolveDisputeWithKey({
        rentalRef: input.rental.toLowerCase(),
        refundMicro: input.refund,
        arbiterKey: env.ARBITER_PRIVATE_KEY as `0x${string}`,
      });
    },
  },
};
