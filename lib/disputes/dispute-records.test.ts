// The off-chain side of a dispute on the real database: the renter's reason (who may save it and
// when), the evidence the owner and the arbiter read, and the outcome told once to both sides and
// to the chats that used the rental.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sendChatNotices } from "@/lib/channels/send-chat-notices";
import { db } from "@/lib/db";
import { loadDisputeEvidence } from "@/lib/disputes/load-dispute-evidence";
import { recordDisputeOpened } from "@/lib/disputes/record-dispute-opened";
import { recordDisputeResolved } from "@/lib/disputes/record-dispute-resolved";
import { saveDisputeClaim } from "@/lib/disputes/save-dispute-claim";
import { tellDisputeChats } from "@/lib/disputes/tell-dispute-chats";
import { env } from "@/lib/env";
import { listNotifications } from "@/lib/notifications/list-notifications";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { sendNoticesTo } from "@/test/chat-notices";
import { makeAgent } from "@/test/fixtures";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";
import { jumpingClock } from "@/test/send-clock";

let mock: ChatPlatformMock;
beforeAll(async () => {
  mock = await startChatPlatformMock();
  Object.assign(env, { TELEGRAM_BOT_TOKEN: "1:dispute-test", TELEGRAM_API_URL: `${mock.url}/telegram` });
});
afterAll(() => mock.close());

const paid = () => ({ renterAddress: `0x${randomBytes(20).toString("hex")}` });
const hex32 = () => `0x${randomBytes(32).toString("hex")}`;
/** The block an event came from, as the event reader passes it (journaled for a reorg's undo). */
const block = (event: string) => ({ event, blockNumber: BigInt(randomBytes(4).readUInt32BE()), blockHash: hex32(), txHash: hex32() });

async function runningRental(overrides: Parameters<typeof rentalOf>[2] = {}) {
  const renter = await makeRenterAccount({ email: true });
  const agent = await makeAgent();
  const rental = await rentalOf(agent, renter, overrides);
  await db.rental.update({ where: { id: rental.id }, data: paid() });
  return { renter, agent, rental };
}

describe("saveDisputeClaim", () => {
  it("saves the reason and details of the renter's running rental, and lets them change it until the chain records the dispute", async () => {
    const { renter, rental } = await runningRental();
    await saveDisputeClaim(renter, rental.id, { reason: "poor_quality", details: "  Answers are off topic.  " });
    await saveDisputeClaim(renter, rental.id, { reason: "incorrect_behaviour", details: "" });
    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: rental.id } })).toMatchObject({
      reason: "incorrect_behaviour",
      details: null,
      openedAt: null,
    });
    await recordDisputeOpened(rental.id, block("DisputeOpened"), new Date());
    await expect(saveDisputeClaim(renter, rental.id, { reason: "other" })).rejects.toMatchObject({ status: 409 });
    expect((await db.dispute.findUniqueOrThrow({ where: { rentalId: rental.id } })).reason).toBe("incorrect_behaviour");
  });

  it("refuses bad input (400), someone else's rental (404), and rentals that cannot be disputed (409)", async () => {
    const { renter, rental } = await runningRental();
    await expect(saveDisputeClaim(renter, rental.id, { reason: "bored" })).rejects.toMatchObject({ status: 400 });
    await expect(saveDisputeClaim(renter, rental.id, { reason: "other", details: "x".repeat(2001) })).rejects.toMatchObject({
      status: 400,
      message: "Keep the details to 2,000 characters or fewer.",
    });
    const stranger = await makeRenterAccount();
    await expect(saveDisputeClaim(stranger, rental.id, { reason: "other" })).rejects.toMatchObject({ status: 404 });
    const ended = await runningRental({ startsInSeconds: -7200, endsInSeconds: -60 });
    await expect(saveDisputeClaim(ended.renter, ended.rental.id, { reason: "other" })).rejects.toMatchObject({
      status: 409,
      message: "A dispute can only be opened while the rental is running.",
    });
    const renter2 = await makeRenterAccount();
    const unpaid = await rentalOf(await makeAgent(), renter2);
    await expect(saveDisputeClaim(renter2, unpaid.id, { reason: "other" })).rejects.toMatchObject({ status: 409 });
    expect(await db.dispute.count({ where: { rentalId: { in: [rental.id, ended.rental.id, unpaid.id] } } })).toBe(0);
  });
});

describe("loadDisputeEvidence", () => {
  it("measures the downtime from the health checks during the rental and suggests the price pro rata; lists the calls without text", async () => {
    const start = new Date(Date.UTC(2026, 10, 20, 10, 0));
    const agent = await makeAgent();
    const rental = { id: "", agentId: agent.id, startsAt: start, endsAt: new Date(start.getTime() + 3_600_000), priceMicro: 4_000_000n };
    const renter = await makeRenterAccount();
    rental.id = (await rentalOf(agent, renter)).id;
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    await db.healthCheck.createMany({
      data: [
        { agentId: agent.id, ok: true, statusCode: 200, latencyMs: 40, trigger: "schedule", createdAt: at(-10) },
        { agentId: agent.id, ok: false, statusCode: null, error: "timeout", latencyMs: 5000, trigger: "schedule", createdAt: at(15) },
        { agentId: agent.id, ok: true, statusCode: 200, latencyMs: 35, trigger: "schedule", createdAt: at(30) },
        { agentId: agent.id, ok: false, statusCode: 500, latencyMs: 20, trigger: "schedule", createdAt: at(90) },
      ],
    });
    await db.chatCall.createMany({
      data: [
        {
          rentalId: rental.id,
          agentId: agent.id,
          statusCode: 200,
          webhookStatus: 200,
          latencyMs: 300,
          requestBytes: 10,
          responseBytes: 20,
          createdAt: at(5),
        },
        {
          rentalId: rental.id,
          agentId: agent.id,
          statusCode: 503,
          webhookStatus: null,
          latencyMs: 30000,
          requestBytes: 10,
          responseBytes: 0,
          createdAt: at(20),
          channel: "Telegram",
        },
        {
          rentalId: rental.id,
          agentId: agent.id,
          statusCode: 200,
          webhookStatus: 200,
          latencyMs: 500,
          requestBytes: 10,
          responseBytes: 20,
          createdAt: at(40),
        },
      ],
    });
    const evidence = await loadDisputeEvidence(rental, at(120));
    expect(evidence).toMatchObject({
      checksTotal: 2,
      checksFailed: 1,
      callsTotal: 3,
      callsFailed: 1,
      medianMs: 400,
      downtimeMs: 15 * 60_000,
      rentalMs: 3_600_000,
      suggestedRefundMicro: 1_000_000n,
    });
    expect(evidence.to).toEqual(rental.endsAt);
    expect(evidence.checks.map((c) => c.error ?? c.statusCode)).toEqual([200, "timeout"]);
    expect(evidence.calls[1]).toEqual({ at: at(20), channel: "Telegram", statusCode: 503, webhookStatus: null, latencyMs: 30000 });
    expect(Object.keys(evidence.calls[0])).not.toContain("message");
  });
});

describe("recordDisputeResolved", () => {
  it("records who decided, tells the renter and the owner once each, and each chat that used the rental once", async () => {
    const { renter, agent, rental } = await runningRental({ channel: "Telegram" });
    const chatUser = String(randomBytes(4).readUInt32BE());
    await db.chatBinding.create({
      data: {
        platform: "Telegram",
        chatUser,
        chatId: chatUser,
        chatLabel: "@renter",
        rentalId: rental.id,
        endedAt: new Date(),
        endReason: "rental_ended",
      },
    });
    await recordDisputeOpened(rental.id, block("DisputeOpened"), new Date());
    const resolved = block("DisputeResolved");
    const decided = { resolvedAt: new Date(), how: 0, refundMicro: rental.priceMicro / 2n };
    await db.rental.update({ where: { id: rental.id }, data: { status: "completed" } });
    await recordDisputeResolved(rental.id, resolved, decided);
    await recordDisputeResolved(rental.id, resolved, { ...decided, how: 2 });

    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: rental.id } })).toMatchObject({
      resolvedBy: "arbiter",
      resolveTxHash: resolved.txHash,
    });
    expect((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).disputeRefundMicro).toBe(decided.refundMicro);
    const notes = await db.notification.findMany({ where: { rentalId: rental.id, kind: "dispute-resolved" } });
    expect(notes.map((n) => n.accountId).sort()).toEqual([renter.id, agent.ownerId].sort());
    expect(notes.every((n) => n.title === "Dispute decided: partial refund")).toBe(true);
    // The owner's notices lead to the listing's disputes, the renter's to the rental.
    const ownerNotes = (await listNotifications(agent.ownerId)).notifications.filter((n) => n.kind.startsWith("dispute-"));
    expect(ownerNotes.map((n) => n.link?.href)).toEqual([
      `/dashboard/agents/${agent.id}#disputes`,
      `/dashboard/agents/${agent.id}#disputes`,
    ]);
    // What the owner reads names the rental by its reference, never by its code or id.
    const ownerEmails = await db.email.findMany({ where: { idempotencyKey: { endsWith: `:${agent.ownerId}` } } });
    const ownerSees = JSON.stringify([ownerNotes, ownerEmails.map((e) => [e.subject, e.text, e.html])]);
    expect(ownerSees).toContain((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).ref);
    expect(ownerSees).not.toContain(rental.id.slice(0, 8));
    const renterNote = (await listNotifications(renter.id)).notifications.find((n) => n.kind === "dispute-resolved");
    expect(renterNote?.link).toEqual({ href: `/dashboard/rentals/${rental.id}`, label: "View the rental" });
    expect(await db.email.count({ where: { idempotencyKey: `dispute-resolved:${rental.id}:${renter.id}` } })).toBe(1);
    // The chat's notice is queued once (recorded twice); the sender sends it.
    expect(await db.chatNotice.count({ where: { idempotencyKey: `dispute-resolved:${rental.id}:Telegram:${chatUser}` } })).toBe(1);
    await sendNoticesTo(chatUser);
    const told = mock.calls().filter((c) => c.method === "sendMessage" && c.body.chat_id === chatUser);
    expect(told).toHaveLength(1);
    expect(String(told[0].body.text)).toMatch(
      /^The dispute over your rental of .* was decided\. The arbiter decided the dispute with a partial refund/,
    );
  });
});

describe("tellDisputeChats", () => {
  it("queues one notice per chat user, once, as it marks the dispute told; the sender tries one the platform could not take again later", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { rental } = await runningRental({ channel: "Telegram" });
    const users = [String(randomBytes(4).readUInt32BE()), String(randomBytes(4).readUInt32BE())];
    await db.chatBinding.createMany({
      data: users.map((chatUser) => ({
        platform: "Telegram" as const,
        chatUser,
        chatId: chatUser,
        chatLabel: "@renter",
        rentalId: rental.id,
      })),
    });
    await recordDisputeOpened(rental.id, block("DisputeOpened"), new Date());
    const told = () => mock.calls().filter((c) => c.method === "sendMessage" && users.includes(String(c.body.chat_id)));
    await recordDisputeResolved(rental.id, block("DisputeResolved"), { resolvedAt: new Date(), how: 0, refundMicro: 0n });
    const dispute = await db.dispute.findUniqueOrThrow({ where: { rentalId: rental.id } });
    expect(dispute.chatsTold.sort()).toEqual(users.map((u) => `Telegram:${u}`).sort());
    expect(dispute.chatsToldAt).toBeInstanceOf(Date);
    // Done: the event reader's later runs queue nothing more.
    const later = (minutes: number) => ({ rentalId: rental.id, now: new Date(Date.now() + minutes * 60_000) });
    expect(await tellDisputeChats(later(11))).toBe(0);
    const notices = await db.chatNotice.findMany({ where: { idempotencyKey: { startsWith: `dispute-resolved:${rental.id}:` } } });
    expect(notices.map((n) => n.chatUser).sort()).toEqual([...users].sort());
    expect(told()).toHaveLength(0);

    // Telegram cannot be reached at the sender's first run: both are due again a minute later.
    const only = notices.map((n) => n.id);
    const api = env.TELEGRAM_API_URL;
    Object.assign(env, { TELEGRAM_API_URL: "http://127.0.0.1:9/telegram" });
    try {
      expect(await sendChatNotices({ only })).toMatchObject({ tried: 2, failed: 2 });
    } finally {
      Object.assign(env, { TELEGRAM_API_URL: api });
    }
    expect(await sendChatNotices({ only })).toMatchObject({ tried: 0 });
    expect(await sendChatNotices({ only, clock: jumpingClock(new Date(Date.now() + 61_000)) })).toMatchObject({ tried: 2, sent: 2 });
    expect(await sendChatNotices({ only, clock: jumpingClock(new Date(Date.now() + 30 * 60_000)) })).toMatchObject({ tried: 0 });
    expect(
      told()
        .map((c) => String(c.body.chat_id))
        .sort(),
    ).toEqual([...users].sort());
    expect(String(told()[0].body.text)).toMatch(
      /^The dispute over your rental of .* was decided\. The arbiter decided the dispute without a refund/,
    );
  });
});
