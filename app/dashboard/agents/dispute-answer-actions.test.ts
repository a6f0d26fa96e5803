// The owner's answer through the dashboard's action: saved for a signed-in owner's own dispute,
// refused in words otherwise, the typed text kept after a refusal.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { formData, mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { disputedRental } from "@/test/dispute-fixtures";
import { makeOwnerAgent } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { saveDisputeAnswerAction } = await import("@/app/dashboard/agents/dispute-answer-actions");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("saveDisputeAnswerAction", () => {
  it("saves the signed-in owner's answer to a dispute on their listing, and says whether it was sent or changed", async () => {
    const agent = await makeOwnerAgent(owner.id);
    const { rental } = await disputedRental({ agent });
    expect(await saveDisputeAnswerAction(agent.id, rental.ref, null, formData({ answer: " The webhook answered every check. " }))).toEqual({
      ok: true,
      message: "Answer sent. The renter is told, and the arbiter reads it beside the renter's reason.",
    });
    expect(await saveDisputeAnswerAction(agent.id, rental.ref, null, formData({ answer: "Every check but one." }))).toEqual({
      ok: true,
      message: "Answer changed. The renter and the arbiter now read the new words.",
    });
    expect((await db.dispute.findUniqueOrThrow({ where: { rentalId: rental.id } })).ownerAnswer).toBe("Every check but one.");
  });

  it("refuses an empty answer beside its field, and another owner's dispute in words, keeping what was typed", async () => {
    const agent = await makeOwnerAgent(owner.id);
    const { rental } = await disputedRental({ agent });
    expect(await saveDisputeAnswerAction(agent.id, rental.ref, null, formData({ answer: "  " }))).toMatchObject({
      ok: false,
      fieldErrors: { answer: "Write your answer first." },
      values: { answer: "  " },
    });
    const theirs = await disputedRental();
    expect(await saveDisputeAnswerAction(theirs.agent.id, theirs.rental.ref, null, formData({ answer: "Mine now." }))).toEqual({
      ok: false,
      message: "This dispute is not on one of your listings.",
      fieldErrors: {},
      values: { answer: "Mine now." },
    });
    expect((await db.dispute.findUniqueOrThrow({ where: { rentalId: theirs.rental.id } })).ownerAnswer).toBeNull();
  });
});
