import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectState } from "@/app/dashboard/agents/actions";
import { db } from "@/lib/db";
import { cookieJar, formData, mockedCookies, mockedHeaders, redirectOf, signInNewOwner } from "@/test/dashboard-session";
import { makeOwnerAgent, makeRental, startWebhook } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { connectWebhookAction, createListingAction, deleteListingAction, updateListingAction } = await import(
  "@/app/dashboard/agents/actions"
);

const LISTING = {
  name: "Dashboard Agent",
  description: "Made in the dashboard.",
  category: "coding",
  skills: "",
  channels: ["API", "Slack"],
  pricePerHour: "2.5",
  pricePerDay: "",
  pricePerMonth: "100",
};

const TOKEN = "t".repeat(43);
const webhooks: Awaited<ReturnType<typeof startWebhook>>[] = [];
afterAll(async () => {
  await Promise.all(webhooks.map((w) => w.close()));
});

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

async function createListing(fields: Record<string, string | string[]> = {}) {
  const path = await redirectOf(createListingAction(null, formData({ ...LISTING, ...fields })));
  const id = /^\/dashboard\/agents\/([0-9a-f-]{36})\?created=1$/.exec(path)?.[1];
  if (!id) throw new Error(`unexpected redirect ${path}`);
  return db.agent.findUniqueOrThrow({ where: { id } });
}

describe("createListingAction", () => {
  it("saves the listing offline, with no skill the owner did not choose and blank prices disabled", async () => {
    const agent = await createListing();
    expect(agent).toMatchObject({
      ownerId: owner.id,
      name: "Dashboard Agent",
      status: "offline",
      category: "coding",
      skills: [],
      channels: ["API", "Slack"],
      pricePerHour: 2_500_000n,
      pricePerDay: null,
      pricePerMonth: 100_000_000n,
      webhookUrlCipher: null,
    });
  });

  it("keeps skills given as text, lower-cased and without repeats", async () => {
    const agent = await createListing({ skills: "SQL, analysis  sql,reports" });
    expect(agent.skills).toEqual(["sql", "analysis", "reports"]);
  });

  it("answers in words, by field, and hands the values back", async () => {
    const state = await createListingAction(
      null,
      formData({
        ...LISTING,
        name: "x",
        skills: "a b c d e f g h i",
        channels: [],
        pricePerHour: "",
        pricePerMonth: "abc",
      }),
    );
    expect(state.ok).toBe(false);
    if (state.ok) return;
    expect(state.fieldErrors).toMatchObject({
      name: "must be at least 2 characters",
      skills: "at most 8 skills",
      channels: "must name at least one channel",
      pricePerMonth: "must be a USDC amount such as 12.5",
    });
    expect(state.message).toMatch(/^Please correct these fields\. Name: must be at least 2 characters;/);
    expect(state.values).toMatchObject({ name: "x", pricePerMonth: "abc" });
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(0);
  });

  it("stores the uptime guarantee given in percent, 99 when left blank, and refuses one out of bounds in words", async () => {
    expect((await createListing({ guaranteePercent: "99.5" })).guaranteePermille).toBe(995);
    expect((await createListing({ guaranteePercent: " " })).guaranteePermille).toBe(990);
    expect((await createListing()).guaranteePermille).toBe(990); // a form without the field
    for (const [given, error] of [
      ["100", "must be between 90 and 99.9"],
      ["99.95", "must have at most one decimal, such as 99.5"],
      ["ninety", "must be a percentage from 90 to 99.9, such as 99 or 99.5"],
    ]) {
      const state = await createListingAction(null, formData({ ...LISTING, guaranteePercent: given }));
      expect(state.ok, given).toBe(false);
      if (state.ok) return;
      expect(state.fieldErrors, given).toEqual({ guaranteePercent: error });
      expect(state.message, given).toContain(`Uptime guarantee: ${error}`);
      expect(state.values, given).toMatchObject({ guaranteePercent: given });
    }
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(3);
  });

  it("needs at least one price", async () => {
    const state = await createListingAction(null, formData({ ...LISTING, pricePerHour: "", pricePerMonth: " " }));
    expect(state).toMatchObject({
      ok: false,
      fieldErrors: { pricePerHour: "set a price for at least one duration: per hour, per day or per month" },
    });
  });

  it("stores a price per message given in USDC, none when blank, and refuses one below 0.001 or with a seventh decimal in words", async () => {
    expect((await createListing({ pricePerMessage: "0.01" })).pricePerMessage).toBe(10_000n);
    expect((await createListing({ pricePerMessage: " 0.001 " })).pricePerMessage).toBe(1_000n);
    expect((await createListing({ pricePerMessage: "" })).pricePerMessage).toBeNull();
    expect((await createListing()).pricePerMessage).toBeNull(); // a form without the field
    for (const [given, error] of [
      ["0.0005", "must be at least 0.001 USDC"],
      ["0", "must be at least 0.001 USDC"],
      ["0.0012345", "must have at most 6 decimals"],
      ["-1", "must not be negative"],
      ["one cent", "must be a USDC amount such as 0.01"],
    ]) {
      const state = await createListingAction(null, formData({ ...LISTING, pricePerMessage: given }));
      expect(state.ok, given).toBe(false);
      if (state.ok) return;
      expect(state.fieldErrors, given).toEqual({ pricePerMessage: error });
      expect(state.message, given).toContain(`Price per message: ${error}`);
      expect(state.values, given).toMatchObject({ pricePerMessage: given });
    }
    // Sold per message only, without a rental price: refused, the rental prices are asked for.
    const alone = await createListingAction(null, formData({ ...LISTING, pricePerHour: "", pricePerMonth: "", pricePerMessage: "0.01" }));
    expect(alone).toMatchObject({
      ok: false,
      fieldErrors: { pricePerHour: "set a price for at least one duration: per hour, per day or per month" },
    });
    expect(await db.agent.count({ where: { ownerId: owner.id } })).toBe(4);
  });

  it("sends a visitor who is not signed in to /sign-in", async () => {
    cookieJar.value = undefined;
    expect(await redirectOf(createListingAction(null, formData(LISTING)))).toBe("/sign-in");
  });
});

describe("updateListingAction", () => {
  it("changes every field; a cleared price disables that duration", async () => {
    const agent = await createListing();
    const state = await updateListingAction(
      agent.id,
      null,
      formData({
        ...LISTING,
        name: "Renamed",
        category: "data",
        skills: "reports, sql",
        channels: ["Discord"],
        pricePerHour: "",
        pricePerDay: "12",
      }),
    );
    expect(state).toMatchObject({ ok: true, message: expect.stringMatching(/^Saved/) });
    const saved = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(saved).toMatchObject({
      name: "Renamed",
      category: "data",
      skills: ["reports", "sql"],
      channels: ["Discord"],
      pricePerHour: null,
      pricePerDay: 12_000_000n,
      pricePerMonth: 100_000_000n,
      status: "offline",
    });
    // The guarantee changes when given, and a blank field leaves it as it is.
    await updateListingAction(agent.id, null, formData({ ...LISTING, guaranteePercent: "97" }));
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).guaranteePermille).toBe(970);
    await updateListingAction(agent.id, null, formData({ ...LISTING, guaranteePercent: "" }));
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).guaranteePermille).toBe(970);
  });

  it("sets, keeps and clears the price per message", async () => {
    const agent = await createListing();
    const price = async () => (await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).pricePerMessage;
    expect(await updateListingAction(agent.id, null, formData({ ...LISTING, pricePerMessage: "0.25" }))).toMatchObject({ ok: true });
    expect(await price()).toBe(250_000n);
    // A form rendered before the field existed leaves it as it is.
    expect(await updateListingAction(agent.id, null, formData({ ...LISTING, name: "Renamed" }))).toMatchObject({ ok: true });
    expect(await price()).toBe(250_000n);
    const refused = await updateListingAction(agent.id, null, formData({ ...LISTING, pricePerMessage: "0.0001" }));
    expect(refused).toMatchObject({ ok: false, fieldErrors: { pricePerMessage: "must be at least 0.001 USDC" } });
    expect(await price()).toBe(250_000n);
    expect(await updateListingAction(agent.id, null, formData({ ...LISTING, pricePerMessage: "" }))).toMatchObject({ ok: true });
    expect(await price()).toBeNull();
  });

  it("refuses to clear the last price, naming the field", async () => {
    const agent = await createListing();
    const state = await updateListingAction(agent.id, null, formData({ ...LISTING, pricePerHour: "", pricePerMonth: "" }));
    expect(state).toMatchObject({ ok: false, message: expect.stringMatching(/last price/) });
  });

  it("another account's agent reads as not found and is left alone", async () => {
    const other = await makeOwnerAgent((await db.account.create({ data: {} })).id);
    const state = await updateListingAction(other.id, null, formData({ ...LISTING, name: "Hijacked" }));
    expect(state).toMatchObject({
      ok: false,
      message: "Agent not found: no agent with this id belongs to your account.",
    });
    expect((await db.agent.findUniqueOrThrow({ where: { id: other.id } })).name).toBe("Owner Agent");
  });
});

describe("deleteListingAction", () => {
  it("asks for the confirmation tick", async () => {
    const agent = await createListing();
    expect(await deleteListingAction(agent.id, null, formData({}))).toMatchObject({
      ok: false,
      fieldErrors: { confirm: expect.any(String) },
    });
    expect(await db.agent.count({ where: { id: agent.id } })).toBe(1);
  });

  it("deletes a listing that was never rented", async () => {
    const agent = await createListing();
    expect(await redirectOf(deleteListingAction(agent.id, null, formData({ confirm: "yes" })))).toBe("/dashboard/agents?deleted=1");
    expect(await db.agent.count({ where: { id: agent.id } })).toBe(0);
  });

  it("is refused in words while a rental is active, and with rental history", async () => {
    const rented = await makeOwnerAgent(owner.id);
    await makeRental(rented.id, { durationType: "day" });
    const active = await deleteListingAction(rented.id, null, formData({ confirm: "yes" }));
    expect(active).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^This agent is rented until .*cannot be deleted while a rental is active\.$/),
    });

    const past = await makeOwnerAgent(owner.id);
    await makeRental(past.id, { status: "completed", startsInSeconds: -7200, endsInSeconds: -3600 });
    const history = await deleteListingAction(past.id, null, formData({ confirm: "yes" }));
    expect(history).toMatchObject({ ok: false, message: expect.stringMatching(/rental history \(1 rental\)/) });
    expect(await db.agent.count({ where: { id: { in: [rented.id, past.id] } } })).toBe(2);
  });

  it("another account's agent reads as not found", async () => {
    const other = await makeOwnerAgent((await db.account.create({ data: {} })).id);
    expect(await deleteListingAction(other.id, null, formData({ confirm: "yes" }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Agent not found/),
    });
    expect(await db.agent.count({ where: { id: other.id } })).toBe(1);
  });
});

describe("connectWebhookAction", () => {
  it("a webhook answering 2xx makes the offline listing available, and the result is reported", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
    webhooks.push(hook);
    const agent = await createListing();
    const state = (await connectWebhookAction(agent.id, null, formData({ webhookUrl: hook.url, webhookToken: TOKEN }))) as ConnectState;
    expect(state).toMatchObject({ ok: true, test: { ok: true, statusCode: 200, error: null, status: "available" } });
    expect(state.test!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(state.message).toMatch(/^Connection works: the webhook answered HTTP 200 in \d+ ms/);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(hook.received[0].body)).toMatchObject({ type: "health_check" });
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).status).toBe("available");
  });

  it("a failing webhook is saved but leaves the listing offline, with the status code in words", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(500).end("down"));
    webhooks.push(hook);
    const agent = await createListing();
    const state = (await connectWebhookAction(agent.id, null, formData({ webhookUrl: hook.url, webhookToken: TOKEN }))) as ConnectState;
    expect(state).toMatchObject({
      ok: false,
      test: {
        ok: false,
        statusCode: 500,
        error: "HTTP 500",
        status: "offline",
        reason: "Your webhook answered HTTP 500: an error in your agent's server.",
        nextStep: "Look in your agent's logs for the error, fix it, then test again.",
      },
    });
    expect(state.message).toBe(
      "The webhook is saved, but it failed the test: Your webhook answered HTTP 500: an error in your agent's server. Look in your agent's logs for the error, fix it, then test again. The agent stays offline until a test passes.",
    );
    const saved = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(saved.status).toBe("offline");
    expect(saved.webhookUrlCipher).not.toBeNull();
  });

  it("a refused connection reads in words, its code kept as the detail; the signing secret comes back until a test passes", async () => {
    const gone = await startWebhook((_req, res) => res.end());
    await gone.close(); // nothing listens there any more: the connection is refused
    const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
    webhooks.push(hook);
    const agent = await createListing();
    const connect = async (webhookUrl: string) =>
      (await connectWebhookAction(agent.id, null, formData({ webhookUrl, webhookToken: TOKEN }))) as ConnectState;

    const refused = await connect(gone.url);
    expect(refused).toMatchObject({
      ok: false,
      values: { webhookUrl: gone.url },
      test: {
        ok: false,
        statusCode: null,
        error: "unreachable: ECONNREFUSED",
        status: "offline",
        reason: "The connection was refused: nothing is listening at that address and port.",
        nextStep: "Start your agent, or check the host and port in the URL.",
      },
    });
    expect(refused.message).toMatch(/^The webhook is saved, but it failed the test: The connection was refused/);
    expect(refused.message).not.toContain("ECONNREFUSED");
    expect(refused.signingSecret).toMatch(/^whsec_/);
    // Still failing: the same secret again, so nothing needs rotating once the URL is fixed.
    expect((await connect(gone.url)).signingSecret).toBe(refused.signingSecret);

    const fixed = await connect(hook.url);
    expect(fixed).toMatchObject({ ok: true, test: { ok: true, reason: null, nextStep: null, status: "available" } });
    expect(fixed.signingSecret).toBe(refused.signingSecret);
    // A test has passed with the secret shown: later connects, passing or not, never show it.
    expect((await connect(hook.url)).signingSecret).toBeUndefined();
    expect((await connect(gone.url)).signingSecret).toBeUndefined();
  });

  it("checks the URL and token before calling anything", async () => {
    const agent = await createListing();
    const state = (await connectWebhookAction(
      agent.id,
      null,
      formData({ webhookUrl: "not a url", webhookToken: "short" }),
    )) as ConnectState;
    expect(state).toMatchObject({
      ok: false,
      fieldErrors: {
        webhookUrl: expect.stringMatching(/full http\(s\) URL/),
        webhookToken: expect.stringMatching(/at least 32 characters/),
      },
    });
    expect(state.test).toBeUndefined();
  });

  it("test connections are limited (5 in a row per listing, 10 per account): refused in words, the webhook not called", async () => {
    vi.useFakeTimers({ toFake: ["Date"] }); // no refill meanwhile
    try {
      const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
      webhooks.push(hook);
      const [a, b, c] = [await createListing(), await createListing(), await createListing()];
      const connect = (id: string) => connectWebhookAction(id, null, formData({ webhookUrl: hook.url, webhookToken: TOKEN }));
      for (let i = 0; i < 5; i++) expect(await connect(a.id)).toMatchObject({ ok: true });
      expect(await connect(a.id)).toMatchObject({
        ok: false,
        message: "Too many webhook tests of this listing (at most 5 in a row, then one a minute); retry in 60 seconds.",
        values: { webhookUrl: hook.url },
      });
      for (let i = 0; i < 5; i++) expect(await connect(b.id)).toMatchObject({ ok: true });
      expect(await connect(c.id)).toMatchObject({
        ok: false,
        message: "Too many webhook tests from this account (at most 10 every 10 minutes); retry in 60 seconds.",
      });
      expect(hook.received).toHaveLength(10);
      expect((await db.agent.findUniqueOrThrow({ where: { id: c.id } })).webhookUrlCipher).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("another account's agent reads as not found, and its webhook is never called", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
    webhooks.push(hook);
    const other = await makeOwnerAgent((await db.account.create({ data: {} })).id);
    const state = (await connectWebhookAction(other.id, null, formData({ webhookUrl: hook.url, webhookToken: TOKEN }))) as ConnectState;
    expect(state).toMatchObject({ ok: false, message: expect.stringMatching(/^Agent not found/) });
    expect(hook.received).toHaveLength(0);
  });
});
