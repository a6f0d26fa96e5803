import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { expectLabelled, html, noSearch } from "@/test/dashboard-pages";
import { mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: EditListing } = await import("@/app/dashboard/agents/[id]/page");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("a listing's page: details filled in, webhook form with Generate token and Test connection, delete", async () => {
    const agent = await makeOwnerAgent(owner.id, { listing: { pricePerDay: null, pricePerMonth: "12.345" } });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expectLabelled(markup);
    expect(markup).toContain("<h1");
    expect(markup).toContain("Owner Agent");
    expect(markup).toMatch(/<label for="[^"]+">Webhook URL<\/label>/);
    expect(markup).toMatch(/<label for="[^"]+">Webhook token<\/label>/);
    expect(markup).toMatch(/<button type="button" class="button">Generate token<\/button>/);
    expect(markup).toMatch(/<button type="submit"[^>]*>Test connection<\/button>/);
    expect(markup).toMatch(/<button type="submit"[^>]*>Save changes<\/button>/);
    expect(markup).toMatch(/aria-label="Delete listing Owner Agent"[^>]*>Delete listing<\/button>/);
    expect(markup).toMatch(/<input [^>]*name="pricePerMonth"[^>]*value="12.345"/);
    expect(markup).toMatch(/<input [^>]*name="pricePerDay"[^>]*value=""/);
    expect(markup).toMatch(/<input type="checkbox" name="channels" checked="" value="API"\/>/);
  });

  it("'Listing created … offline' shows only while the new listing is offline", async () => {
    const agent = await makeOwnerAgent(owner.id); // available: its webhook test passed
    const page = () => EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: Promise.resolve({ created: "1" }) });
    expect(html(await page())).not.toContain("Listing created");
    await db.agent.update({ where: { id: agent.id }, data: { status: "offline" } });
    expect(html(await page())).toContain("Listing created. It is offline until you connect its webhook");
  });

  it("a connected webhook shows its URL's host only: never the token, path or query; the form links to the contract", async () => {
    const webhook = { url: "https://bots.owner-test.dev:8443/private/hooks?key=query-secret", token: "tok-".repeat(10) };
    const agent = await makeOwnerAgent(owner.id, { webhook });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expect(markup).toMatch(/Connected to <strong[^>]*>bots\.owner-test\.dev:8443<\/strong>/);
    expect(markup).not.toContain(webhook.token);
    expect(markup).not.toContain("tok-tok");
    expect(markup).not.toContain("/private/hooks");
    expect(markup).not.toContain("query-secret");
    expect(markup).toContain('href="/docs/webhooks"');
  });

  it("a saved webhook whose latest test failed never reads 'Connected'", async () => {
    const agent = await makeOwnerAgent(owner.id, { webhook: { url: "https://bots.owner-test.dev/hooks/agent", token: "tok-".repeat(10) } });
    await db.agent.update({ where: { id: agent.id }, data: { status: "offline" } });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expect(markup).toMatch(/A webhook at <strong[^>]*>bots\.owner-test\.dev<\/strong> is saved, but it did not answer its latest test/);
    expect(markup).not.toContain("Connected to");
  });

  it("a listing without a webhook says so", async () => {
    const agent = await makeOwnerAgent(owner.id);
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expect(markup).toContain("No webhook is connected yet.");
    expect(markup).not.toContain("Connected to");
  });

  it("a listing with rentals on record says why it stays, and offers no delete", async () => {
    const agent = await makeOwnerAgent(owner.id);
    await makeRental(agent.id, { status: "completed", startsInSeconds: -2 * 86_400 });
    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    expect(markup).toContain("This listing has 1 rental on record, so it stays");
    expect(markup).not.toContain("Delete listing Owner Agent");
  });

  it("lists the listing's rentals by reference with their uptime and what downtime cost, never any part of their ids", async () => {
    const agent = await makeOwnerAgent(owner.id); // 2 USDC an hour, 10 a day
    const hourAgo = (hours: number) => ({
      durationType: "hour" as const,
      startsInSeconds: -hours * 3600,
      endsInSeconds: -hours * 3600 + 3600,
    });
    // Ended, unsettled: 15 of 60 minutes down against a 99% guarantee (none allowed): 0.50 USDC due.
    const due = await makeRental(agent.id, hourAgo(5));
    await db.rental.update({ where: { id: due.id }, data: { minutesMeasured: [0, 60], minutesDown: [10, 25] } });
    // Settled by the escrow: 0.25 USDC went back to the renter.
    const settled = await makeRental(agent.id, { ...hourAgo(4), status: "completed" });
    await db.rental.update({
      where: { id: settled.id },
      data: { minutesMeasured: [0, 60], minutesDown: [0, 8], availabilityRefundMicro: 250_000n },
    });
    // Running, one minute down of the day's 14 allowed.
    const running = await makeRental(agent.id, { startsInSeconds: -600 });
    await db.rental.update({ where: { id: running.id }, data: { minutesMeasured: [0, 10], minutesDown: [3, 4] } });
    const disputed = await makeRental(agent.id, { ...hourAgo(3), status: "disputed" });
    const pending = await makeRental(agent.id, { status: "pending" });

    const markup = html(await EditListing({ params: Promise.resolve({ id: agent.id }), searchParams: noSearch }));
    const text = markup.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(markup).toContain('<h2 id="rentals-heading">Rentals</h2>');
    expect(text).toContain("Rental Started Status Price Uptime Refunded for downtime");
    expect(text).toContain(`${due.ref} 1 hour`);
    expect(text).toMatch(new RegExp(`${due.ref} .* Ended 2\\.00 USDC 75% 15 of 60 minutes down 0\\.50 USDC due at settlement`));
    expect(text).toMatch(new RegExp(`${settled.ref} .* Completed 2\\.00 USDC 86\\.66% 8 of 60 minutes down 0\\.25 USDC `));
    expect(text).toMatch(
      new RegExp(`${running.ref} .* Active 10\\.00 USDC 9\\d(\\.\\d+)?% so far 1 of 1\\d minutes down None so far, within the guarantee`),
    );
    expect(text).toMatch(new RegExp(`${disputed.ref} .* Disputed 2\\.00 USDC 100% none of 60 minutes down The dispute decides`));
    expect(markup).not.toContain(pending.ref);
    // Newest first.
    expect(text.indexOf(running.ref)).toBeLessThan(text.indexOf(disputed.ref));
    expect(text.indexOf(settled.ref)).toBeLessThan(text.indexOf(due.ref));
    for (const rental of [due, settled, running, disputed, pending]) {
      const hex = rental.id.replaceAll("-", "");
      for (let i = 0; i + 8 <= hex.length; i += 4) expect(markup).not.toContain(hex.slice(i, i + 8));
    }
  });

  it("another account's listing is a 404", async () => {
    const theirs = await makeOwnerAgent((await makeOwner()).id);
    await expect(EditListing({ params: Promise.resolve({ id: theirs.id }), searchParams: noSearch })).rejects.toMatchObject({
      digest: expect.stringMatching(/NOT_FOUND|404/),
    });
  });
});
