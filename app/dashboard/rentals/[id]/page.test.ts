// The renter dashboard pages rendered as the server renders them, for a signed-in account
// (next/headers' cookies mocked, as in app/(auth)/sign-in/page.test.ts), and their server actions.
import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { formatClock } from "@/lib/format/date-time";
import { startTrial } from "@/lib/trials/start-trial";
import { mockedCookies, mockedHeaders, signInNewRenter, signOutOfJar } from "@/test/dashboard-session";
import { makeAgent, makeRental } from "@/test/fixtures";
import { rentalOf } from "@/test/renter-fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: RentalPage } = await import("@/app/dashboard/rentals/[id]/page");
const { rateRentalAction } = await import("@/app/dashboard/rentals/actions");

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent({ listing: { name: `Page Agent ${randomBytes(3).toString("hex")}` } });
});

const rentalFor = (accountId: string, overrides: Parameters<typeof rentalOf>[2] = {}) =>
  rentalOf(agent, { id: accountId, walletAddress: null }, overrides);

const renderRental = async (id: string) => renderToStaticMarkup(await RentalPage({ params: Promise.resolve({ id }) }));

beforeEach(signOutOfJar);

describe("/dashboard/rentals/[id]", () => {
  it("is not found for someone else's rental", async () => {
    const other = await makeRental(agent.id);
    await signInNewRenter();
    await expect(renderRental(other.id)).rejects.toMatchObject({ digest: expect.stringContaining("404") });
    await expect(renderRental("junk")).rejects.toMatchObject({ digest: expect.stringContaining("404") });
  });

  it("shows the playground, the rating form and (without chain settings) why disputes are unavailable", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId);
    const html = await renderRental(rental.id);
    expect(html).toContain(`<h1>${agent.name}</h1>`);
    expect(html).toMatch(/<label[^>]*>Message to /);
    expect(html).toMatch(/<button type="submit"[^>]*>Send<\/button>/);
    expect(html).toMatch(/<input type="radio" required="" name="score" value="5"/);
    expect(html).toContain("5 stars, excellent");
    expect(html).toMatch(/maxLength="1000"/);
    expect(html).toContain("Disputes are unavailable");
  });

  it("a free trial: its messages left instead of a price, the playground, and neither rating nor dispute (issue 29)", async () => {
    const { accountId } = await signInNewRenter();
    const offering = await makeAgent({
      listing: { name: `Trial Agent ${randomBytes(3).toString("hex")}`, trialMessages: 4 },
      webhook: { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) },
    });
    const { trial } = await startTrial({ accountId, agentId: offering.id, client: "203.0.113.7" });
    const html = await renderRental(trial.id);
    expect(html).toMatch(/<dt>Free trial<\/dt><dd data-testid="trial-messages-left">4 messages left/);
    expect(html).toContain(`href="/agents/${offering.id}/rent"`);
    expect(html).not.toContain("<dt>Paid</dt>");
    expect(html).toMatch(/<label[^>]*>Message to /);
    expect(html).toContain("A free trial cannot be rated: ratings come from paid rentals.");
    expect(html).toContain("A free trial cannot be disputed: nothing was paid for it.");
    expect(html).not.toContain('name="score"');
    expect(html).not.toContain(">Extend<");
  });

  it("shows the renter's usage from the call records: messages, errors, median reply, messages per day", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId);
    const call = { rentalId: rental.id, agentId: agent.id, requestBytes: 5, responseBytes: 9, createdAt: rental.startsAt };
    await db.chatCall.createMany({
      data: [
        { ...call, statusCode: 200, webhookStatus: 200, latencyMs: 1200 },
        { ...call, statusCode: 200, webhookStatus: 200, latencyMs: 1800, channel: "Telegram" },
        { ...call, statusCode: 503, webhookStatus: null, latencyMs: 30_000 },
      ],
    });
    const html = await renderRental(rental.id);
    expect(html).toContain('<h2 id="usage-heading">Your usage</h2>');
    expect(html).toContain("<dt>Messages</dt><dd>3</dd>");
    expect(html).toMatch(/<dt>Errors<\/dt><dd>1<span class="hint">/);
    expect(html).toContain("<dt>Median reply</dt><dd>1.5 s</dd>");
    expect(html).toContain("the API and the playground: 2 · Telegram: 1");
    expect(html).not.toContain("Messages per day"); // one day: the figures say it all
  });

  it("offers the dispute stepper for a paid, running rental when the chain is configured", async () => {
    vi.stubEnv("CHAIN_ID", "31337");
    vi.stubEnv("CHAIN_RPC_URL", "http://127.0.0.1:8545");
    vi.stubEnv("ESCROW_ADDRESS", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
    vi.resetModules();
    try {
      const { default: FreshRentalPage } = await import("@/app/dashboard/rentals/[id]/page");
      const { accountId, address } = await signInNewRenter();
      const paid = await rentalFor(accountId);
      await db.rental.update({ where: { id: paid.id }, data: { renterAddress: address } });
      const html = renderToStaticMarkup(await FreshRentalPage({ params: Promise.resolve({ id: paid.id }) }));
      expect(html).toMatch(/<button type="button" class="button">Open a dispute…<\/button>/);
      expect(html).toContain("the rental shows as disputed here within a minute and the owner is told");
      expect(html).toContain(`${address.slice(0, 6)}…${address.slice(-4)}`);

      const unpaid = await rentalFor(accountId);
      const demo = renderToStaticMarkup(await FreshRentalPage({ params: Promise.resolve({ id: unpaid.id }) }));
      expect(demo).not.toContain("Open a dispute…");
      expect(demo).toContain("not paid through the escrow");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("disables the playground once the rental has ended and closes the dispute window", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId, { startsInSeconds: -7200, endsInSeconds: -60 });
    const html = await renderRental(rental.id);
    expect(html).toMatch(/<textarea[^>]*disabled/);
    expect(html).toContain("no longer answers its code");
    expect(html).toContain("The dispute window closed");
    expect(html).toMatch(/Status: <\/span>Ended/);
  });

  it("draws the rental's minutes and says what the downtime returns of the price, then what was refunded", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId, { durationType: "hour" });
    // A whole clock hour that ended an hour ago or more (so its times never cross a UTC midnight),
    // 6 USDC, a 99% guarantee (no down minute allowed in 60): minutes 14–28 down, so 15 of 60 and
    // a quarter of the price back.
    const startsAt = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
    await db.rental.update({
      where: { id: rental.id },
      data: {
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3_600_000),
        priceMicro: 6_000_000n,
        guaranteePermille: 990,
        minutesMeasured: [0, 60],
        minutesDown: [14, 29],
      },
    });
    const clock = (minute: number) => formatClock(new Date(startsAt.getTime() + minute * 60_000));
    let html = await renderRental(rental.id);
    expect(html).toContain('<h2 id="uptime-heading">Uptime</h2>');
    expect(html).toContain(`45 of 60 minutes up, 15 down (${clock(14)}–${clock(28)} UTC).`);
    expect(html.match(/<span [^>]*title="[^"]*: down"/g)).toHaveLength(15);
    expect(html.match(/<span [^>]*title="[^"]*: up"/g)).toHaveLength(45);
    expect(html).toContain(`title="${clock(14)} UTC: down"`);
    expect(html).toMatch(/role="img" aria-labelledby="rental-minutes-summary"/);
    expect(html).toContain("Uptime 75% against a 99% guarantee: 1.50 USDC of the price comes back to you when the rental is settled.");
    expect(html).toContain("allows no down minute in this rental&#x27;s 60 minutes");

    // Once the escrow settled it, the page says what it returned.
    await db.rental.update({ where: { id: rental.id }, data: { availabilityRefundMicro: 1_500_000n } });
    html = await renderRental(rental.id);
    expect(html).toContain("Uptime 75% against a 99% guarantee: 1.50 USDC was refunded to you.");
  });

  it("a running day within its guarantee: 15-minute cells, so far, no refund due", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId, { startsInSeconds: -3600 });
    await db.rental.update({ where: { id: rental.id }, data: { minutesMeasured: [0, 60], minutesDown: [30, 31] } });
    const html = await renderRental(rental.id);
    expect(html).toMatch(/So far \d+ of \d+ minutes up, 1 down \(/);
    expect(html).toMatch(/Uptime so far 9\d(\.\d+)?% against a 99% guarantee\. Within the guarantee so far: no refund due\./);
    expect(html).toContain("allows 14 of this rental&#x27;s 1,440 minutes down");
    expect(html.match(/<span [^>]*title="[^"]* UTC: [^"]*"/g)).toHaveLength(96);
    expect(html.match(/title="[^"]*: 1 of 15 minutes down"/g)).toHaveLength(1);
  });

  it("rates through the server action once, then shows the rating instead of the form", async () => {
    const { accountId } = await signInNewRenter();
    const rental = await rentalFor(accountId);
    const form = new FormData();
    form.set("score", "4");
    form.set("comment", "Quick and right");
    const first = await rateRentalAction(rental.id, { ok: false, message: null }, form);
    expect(first).toMatchObject({ ok: true, message: expect.stringContaining("saved") });
    const second = await rateRentalAction(rental.id, { ok: false, message: null }, form);
    expect(second).toMatchObject({
      ok: false,
      message: expect.stringMatching(/already rated/),
      values: { score: "4", comment: "Quick and right" },
    });

    const bad = new FormData();
    bad.set("score", "9");
    const other = await rentalFor(accountId);
    expect(await rateRentalAction(other.id, { ok: false, message: null }, bad)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/1 to 5/),
    });

    const html = await renderRental(rental.id);
    expect(html).toContain("You rated this rental 4 of 5");
    expect(html).toContain("Quick and right");
    expect(html).not.toMatch(/name="score"/);
  });

  it("refuses the rating action to a visitor who is not signed in", async () => {
    const rental = await makeRental(agent.id);
    const form = new FormData();
    form.set("score", "5");
    await expect(rateRentalAction(rental.id, { ok: false, message: null }, form)).rejects.toMatchObject({
      digest: expect.stringContaining("/sign-in"),
    });
    expect(await db.rating.count({ where: { rentalId: rental.id } })).toBe(0);
  });
});
