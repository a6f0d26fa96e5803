// The owner's answer to a dispute on the real database: who may answer which dispute and when,
// the bounds of the text, and the renter told once however often it is edited.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { saveDisputeAnswer } from "@/lib/disputes/save-dispute-answer";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { disputedRental } from "@/test/dispute-fixtures";
import { makeOwnerAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes));
const answerOf = async (rentalId: string) =>
  db.dispute.findUniqueOrThrow({ where: { rentalId }, select: { ownerAnswer: true, ownerAnsweredAt: true } });

describe("saveDisputeAnswer", () => {
  it("saves the owner's answer, trimmed and as written; each save replaces it; the renter is told once, without the owner's words", async () => {
    const { agent, renter, rental } = await disputedRental();
    const target = { agentId: agent.id, rentalRef: rental.ref };
    const words = "  The agent was up: <b>see</b> the checks at 10:15.\nhttps://example.com/status  ";
    expect(await saveDisputeAnswer(agent.ownerId, target, words, at(1))).toEqual({ answer: words.trim(), answeredAt: at(1), first: true });
    expect(await answerOf(rental.id)).toEqual({ ownerAnswer: words.trim(), ownerAnsweredAt: at(1) });
    await saveDisputeAnswer(agent.ownerId, { ...target, rentalRef: rental.ref.toUpperCase() }, "Edited once.", at(2));
    expect(await saveDisputeAnswer(agent.ownerId, target, "Edited twice.", at(3))).toMatchObject({ first: false });
    expect(await answerOf(rental.id)).toEqual({ ownerAnswer: "Edited twice.", ownerAnsweredAt: at(3) });

    const notes = await db.notification.findMany({ where: { rentalId: rental.id, kind: "dispute-answered" } });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ accountId: renter.id, title: "The owner answered your dispute" });
    const emails = await db.email.findMany({ where: { idempotencyKey: `dispute-answered:${rental.id}:${renter.id}` } });
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      to: renter.email,
      subject: `The owner answered your dispute (Test Agent, rental ${rental.id.slice(0, 8)})`,
    });
    expect(emails[0].text).toContain(`/dashboard/rentals/${rental.id}#dispute`);
    // The owner's words stay on the pages: never in the message the service sends in its own name.
    for (const sent of [notes[0].body, emails[0].text, emails[0].html]) {
      expect(sent).not.toContain("10:15");
      expect(sent).not.toContain("example.com/status");
      expect(sent).not.toContain("Edited");
    }
    const renterNote = (await listNotifications(renter.id)).notifications.find((n) => n.kind === "dispute-answered");
    expect(renterNote?.link).toEqual({ href: `/dashboard/rentals/${rental.id}`, label: "View the rental" });
  });

  it("refuses another owner's dispute, another listing, an unknown or malformed reference and a dispute not on chain yet alike (404)", async () => {
    const { agent, rental } = await disputedRental();
    const other = await disputedRental();
    const otherListing = await makeOwnerAgent(agent.ownerId);
    const notFound = { status: 404, message: "This dispute is not on one of your listings." };
    const attempts: [string, { agentId: string; rentalRef: string }][] = [
      [other.agent.ownerId, { agentId: agent.id, rentalRef: rental.ref }],
      [other.agent.ownerId, { agentId: other.agent.id, rentalRef: rental.ref }],
      [agent.ownerId, { agentId: otherListing.id, rentalRef: rental.ref }],
      [agent.ownerId, { agentId: agent.id, rentalRef: other.rental.ref }],
      [agent.ownerId, { agentId: agent.id, rentalRef: `rr_${"0".repeat(32)}` }],
      [agent.ownerId, { agentId: agent.id, rentalRef: rental.id }],
      [agent.ownerId, { agentId: "not-an-id", rentalRef: rental.ref }],
    ];
    for (const [ownerId, target] of attempts) {
      await expect(saveDisputeAnswer(ownerId, target, "Not mine.")).rejects.toMatchObject(notFound);
    }
    // The renter saved a reason but the chain has no dispute yet: nothing to answer.
    const renter = await makeRenterAccount();
    const unopened = await rentalOf(agent, renter);
    await db.dispute.create({ data: { rentalId: unopened.id, reason: "other" } });
    const { ref } = await db.rental.findUniqueOrThrow({ where: { id: unopened.id }, select: { ref: true } });
    await expect(saveDisputeAnswer(agent.ownerId, { agentId: agent.id, rentalRef: ref }, "Too early.")).rejects.toMatchObject(notFound);
    expect((await answerOf(rental.id)).ownerAnswer).toBeNull();
    expect((await answerOf(unopened.id)).ownerAnswer).toBeNull();
  });

  it("keeps the answer once the dispute is decided (409), and refuses an empty or too long answer (400)", async () => {
    const { agent, rental } = await disputedRental();
    const target = { agentId: agent.id, rentalRef: rental.ref };
    await expect(saveDisputeAnswer(agent.ownerId, target, "   ")).rejects.toMatchObject({
      status: 400,
      message: "Write your answer first.",
    });
    await expect(saveDisputeAnswer(agent.ownerId, target, "x".repeat(2001))).rejects.toMatchObject({
      status: 400,
      message: "Keep the answer to 2,000 characters or fewer.",
    });
    await saveDisputeAnswer(agent.ownerId, target, "x".repeat(2000), at(1));
    await db.dispute.update({ where: { rentalId: rental.id }, data: { resolvedAt: at(2), resolvedBy: "arbiter" } });
    await expect(saveDisputeAnswer(agent.ownerId, target, "After the decision.")).rejects.toMatchObject({
      status: 409,
      message: "This dispute has been decided, so your answer can no longer be changed.",
    });
    expect(await answerOf(rental.id)).toEqual({ ownerAnswer: "x".repeat(2000), ownerAnsweredAt: at(1) });
  });
});
