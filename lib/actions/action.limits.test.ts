import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { limiters } from "@/lib/ratelimit/policies";
import { formData, mockedCookies, redirectOf, signInNewOwner } from "@/test/dashboard-session";
import { makeOwnerAgent, makeRental, startWebhook } from "@/test/fixtures";

// Every dashboard server action spends from its account's action budget (limitAction, 30 a
// minute) and answers in words once it is empty, changing nothing. The budget is emptied
// directly, with the clock (Date) standing still so nothing refills meanwhile.
vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const agents = await import("@/app/dashboard/agents/actions");
const keys = await import("@/app/dashboard/keys/actions");
const rentals = await import("@/app/dashboard/rentals/actions");
const notifications = await import("@/app/dashboard/notifications/actions");

const LISTING = {
  name: "Limited Agent",
  description: "For the limit test.",
  category: "other",
  channels: ["API"],
  pricePerHour: "2",
};
const LIMITED = /^Too many changes in a short time \(at most 30 a minute\); retry in 2 seconds\.$/;

const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
afterAll(() => hook.close());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => vi.useRealTimers());

async function exhausted() {
  const owner = await signInNewOwner();
  for (let i = 0; i < 30; i++) await limiters().dashboardAction.limit(owner.id);
  return owner;
}

describe("dashboard actions when the account's action budget is spent", () => {
  it("listing actions refuse in words, keep the form's values and change nothing", async () => {
    const owner = await exhausted();
    const agent = await makeOwnerAgent(owner.id);
    const created = await agents.createListingAction(null, formData(LISTING));
    expect(created).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
      values: { name: "Limited Agent" },
    });
    expect(await agents.updateListingAction(agent.id, null, formData({ ...LISTING, name: "Renamed" }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
    });
    expect(await agents.deleteListingAction(agent.id, null, formData({ confirm: "yes" }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
    });
    const connected = await agents.connectWebhookAction(agent.id, null, formData({ webhookUrl: hook.url, webhookToken: "t".repeat(43) }));
    expect(connected).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
      values: { webhookUrl: hook.url },
    });
    expect(hook.received).toHaveLength(0);
    expect(await db.agent.findMany({ where: { ownerId: owner.id }, select: { name: true, webhookUrlCipher: true } })).toEqual([
      { name: "Owner Agent", webhookUrlCipher: null },
    ]);
  });

  it("API key actions refuse in words and change nothing", async () => {
    const owner = await exhausted();
    const { prefix } = await issueApiKey(owner.id);
    const key = await db.apiKey.findFirstOrThrow({ where: { prefix } });
    expect(await keys.createApiKeyAction(null, formData({ label: "more" }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
    });
    expect(await keys.revokeApiKeyAction(null, formData({ keyId: key.id }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(LIMITED),
    });
    expect(await db.apiKey.findMany({ where: { accountId: owner.id }, select: { revokedAt: true } })).toEqual([{ revokedAt: null }]);
  });

  it("rating refuses in words and keeps the values", async () => {
    const owner = await exhausted();
    const rental = await makeRental((await makeOwnerAgent(owner.id)).id);
    const state = await rentals.rateRentalAction(rental.id, { ok: false, message: null }, formData({ score: "5", comment: "great" }));
    expect(state).toEqual({
      ok: false,
      message: expect.stringMatching(LIMITED),
      fieldErrors: {},
      values: { score: "5", comment: "great" },
    });
    expect(await db.rating.count({ where: { rentalId: rental.id } })).toBe(0);
  });

  it("notification actions go back to the page, which says why (?limited=1)", async () => {
    const owner = await exhausted();
    const n = await db.notification.create({
      data: { accountId: owner.id, kind: "rental-ended", title: "Ended", body: "Body" },
    });
    expect(await redirectOf(notifications.markAllReadAction())).toBe("/dashboard/notifications?limited=1");
    expect(await redirectOf(notifications.markReadAction(n.id))).toBe("/dashboard/notifications?limited=1");
    expect((await db.notification.findUniqueOrThrow({ where: { id: n.id } })).readAt).toBeNull();
  });
});
