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

  it("another account's listing is a 404", async () => {
    const theirs = await makeOwnerAgent((await makeOwner()).id);
    await expect(EditListing({ params: Promise.resolve({ id: theirs.id }), searchParams: noSearch })).rejects.toMatchObject({
      digest: expect.stringMatching(/NOT_FOUND|404/),
    });
  });
});
