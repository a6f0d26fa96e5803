import "server-only";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

/**
 * Takes one of a trial's free messages before the owner is asked (docs/trials.md): one UPDATE
 * that decrements only while messages are left and the listing still offers a trial, so a burst of
 * concurrent messages gets at most the messages left (the row lock orders them; the last ones find
 * 0). Returns the messages left after this one. Refused with 402 and the checkout's address when
 * none are left or the owner ended the offer.
 */
export async function spendTrialMessage(rental: { id: string; agent: { id: string; name: string } }): Promise<number> {
  const rows = await db.$queryRaw<{ left: number }[]>`
    UPDATE rentals r SET trial_messages_left = r.trial_messages_left - 1, updated_at = now()
    FROM agents a
    WHERE r.id = ${rental.id}::uuid AND a.id = r.agent_id AND r.trial
      AND r.trial_messages_left > 0 AND a.trial_messages IS NOT NULL
    RETURNING r.trial_messages_left AS "left"`;
  if (rows.length > 0) return rows[0].left;
  const agent = await db.agent.findUnique({ where: { id: rental.agent.id }, select: { trialMessages: true } });
  throw trialOver(rental.agent, agent?.trialMessages == null ? "ended" : "used");
}

/**
 * A message the owner never answered (the webhook failed, timed out or is not connected) is given
 * back: the renter tried the agent, the agent did not answer. Only a trial's count moves.
 */
export async function returnTrialMessage(rentalId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE rentals SET trial_messages_left = trial_messages_left + 1, updated_at = now()
    WHERE id = ${rentalId}::uuid AND trial AND trial_messages_left IS NOT NULL`;
}

/** A trial's messages left, read now. */
export async function readTrialMessagesLeft(rentalId: string): Promise<number> {
  const row = await db.rental.findUnique({ where: { id: rentalId }, select: { trialMessagesLeft: true } });
  return row?.trialMessagesLeft ?? 0;
}

/** Where a renter whose trial is over rents the agent. */
export const checkoutUrl = (agentId: string) => `${appUrl()}/agents/${agentId}/rent`;

// 402 Payment Required in the spec's error form, with the checkout's address in the sentence.
export function trialOver(agent: { id: string; name: string }, why: "used" | "ended"): ApiError {
  const reason = why === "used" ? "This free trial has used all its free messages" : "The owner has ended this agent's free trial offer";
  return new ApiError(402, `${reason}. Rent ${agent.name} to keep talking: ${checkoutUrl(agent.id)}`);
}
