import "server-only";
import { CATEGORY_SKILLS, type Category } from "@/lib/agents/categories";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import type { AgentListingPatch } from "@/lib/schemas/agent-listing";

const PRICES = ["pricePerHour", "pricePerDay", "pricePerMonth"] as const;

// Applies a partial update to one of the account's listings. A cleared price disables that
// duration, but one must remain, or the agent could not be rented at all. With `categoryDefaults`
// false (the dashboard) an empty skills list stays empty instead of becoming the category's.
export async function updateAgent(ownerId: string, agentId: string, patch: AgentListingPatch, options = { categoryDefaults: true }) {
  return db.$transaction(async (tx) => {
    const agent = await findOwnerAgent(ownerId, agentId, tx);
    const next = (p: (typeof PRICES)[number]) => (patch[p] === undefined ? agent[p] : patch[p]);
    const prices = {
      pricePerHour: next("pricePerHour"),
      pricePerDay: next("pricePerDay"),
      pricePerMonth: next("pricePerMonth"),
    };
    if (PRICES.every((p) => prices[p] === null)) {
      const field = PRICES.find((p) => patch[p] === null) ?? "pricePerHour";
      throw new ApiError(
        400,
        `${field}: this would clear the last price; keep a price for at least one duration (per hour, per day or per month)`,
      );
    }
    const category = patch.category ?? (agent.category as Category);
    // "End the trial offer" (docs/trials.md): no trial is issued any more, and every running one
    // stops at once — its messages left become 0, in the same transaction, so the next message
    // answers 402. The chat path also refuses a trial message while the listing offers none.
    if (patch.trialMessages === null && agent.trialMessages !== null) {
      await tx.rental.updateMany({
        where: { agentId: agent.id, trial: true, trialMessagesLeft: { gt: 0 } },
        data: { trialMessagesLeft: 0 },
      });
    }
    return tx.agent.update({
      where: { id: agent.id },
      data: {
        name: patch.name,
        description: patch.description,
        category,
        skills: nextSkills(agent, category, patch.skills, options.categoryDefaults),
        channels: patch.channels,
        guaranteePermille: patch.guaranteePercent,
        // Absent: unchanged; null (or "" from the form): no longer sold per message.
        pricePerMessage: patch.pricePerMessage,
        // Absent: unchanged; null (or "" from the form): the trial offer ends.
        trialMessages: patch.trialMessages,
        ...prices,
      },
    });
  });
}

// Skills given are kept as given (an empty list means the category's defaults, as at creation).
// Skills not given follow a category change only while they are still the old category's
// defaults, which the owner never chose.
function nextSkills(agent: { category: string; skills: string[] }, category: Category, skills: string[] | undefined, defaults: boolean) {
  if (skills !== undefined) return skills.length || !defaults ? [...new Set(skills)] : [...CATEGORY_SKILLS[category]];
  const old: readonly string[] = CATEGORY_SKILLS[agent.category as Category] ?? [];
  const unchosen = agent.skills.length === old.length && agent.skills.every((s, i) => s === old[i]);
  return unchosen ? [...CATEGORY_SKILLS[category]] : agent.skills;
}
