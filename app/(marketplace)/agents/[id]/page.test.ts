// The public listing page as the server renders it: the listing's uptime guarantee among its facts
// and in the rent box, in the words renters read ("99.5% uptime guarantee").
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { mockedCookies, mockedHeaders, redirectOf, signInNewRenter, signOutOfJar } from "@/test/dashboard-session";
import { makeAgent } from "@/test/fixtures";

vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  connection: async () => {},
}));

// The session cookie a request would carry (none: a visitor), and the request's headers.
vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: AgentPage } = await import("@/app/(marketplace)/agents/[id]/page");
const { startTrialAction } = await import("@/app/(marketplace)/agents/[id]/actions");

const render = async (id: string, query: Record<string, string> = {}) =>
  renderToStaticMarkup(await AgentPage({ params: Promise.resolve({ id }), searchParams: Promise.resolve(query) }));

beforeEach(() => signOutOfJar());

describe("/agents/[id]", () => {
  it("shows the listing's uptime guarantee as a fact and beside the prices", async () => {
    const agent = await makeAgent({
      listing: { guaranteePercent: 99.5 },
      webhook: { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) },
    });
    const html = await render(agent.id);
    expect(html).toMatch(/<dt>Uptime guarantee<\/dt><dd>99\.5%<span class="hint">/);
    expect(html).toContain("down minutes beyond what this allows are refunded to you automatically");
    expect(html).toMatch(/data-testid="uptime-guarantee">99\.5% uptime guarantee: down minutes beyond it are refunded automatically\./);
  });

  it("shows the price per message beside the rental prices when the listing sells single answers", async () => {
    const webhook = { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) };
    const sold = await makeAgent({ listing: { pricePerMessage: 0.01 }, webhook });
    expect(await render(sold.id)).toMatch(/data-testid="price-per-message"><strong>0\.01 USDC per message<\/strong>/);
    const notSold = await makeAgent({ webhook });
    expect(await render(notSold.id)).not.toContain("per message");
  });

  it("says 99% for a listing that kept the default", async () => {
    const agent = await makeAgent();
    expect(await render(agent.id)).toContain("99% uptime guarantee");
  });

  it("links the listing's A2A agent card while it is on the marketplace, not while it has no webhook", async () => {
    const listed = await makeAgent({ webhook: { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) } });
    expect(await render(listed.id)).toContain(
      `<a href="/a2a/${listed.id}/.well-known/agent-card.json" type="application/json">agent card</a>`,
    );
    const unconnected = await makeAgent();
    expect(await render(unconnected.id)).not.toContain("agent-card.json");
  });

  describe("the free trial (issue 29)", () => {
    const webhook = { url: "https://agent.example.com/hooks/agent", token: "t".repeat(40) };

    it("says 'Try N messages free' to a visitor, with a sign-in link back to the page and no button", async () => {
      const agent = await makeAgent({ listing: { trialMessages: 5 }, webhook });
      const html = await render(agent.id);
      expect(html).toContain("Try 5 messages free</h3>");
      expect(html).toContain(`href="/sign-in?next=%2Fagents%2F${agent.id}"`);
      expect(html).not.toContain("Start free trial");
    });

    it("shows nothing of a trial when the listing offers none", async () => {
      const agent = await makeAgent({ webhook });
      await signInNewRenter();
      expect(await render(agent.id)).not.toContain('data-testid="trial-box"');
    });

    it("gives a signed-in renter the button; the trial's code and messages left after it, and the same trial on a second press", async () => {
      const agent = await makeAgent({ listing: { trialMessages: 3 }, webhook });
      const { accountId } = await signInNewRenter();
      let html = await render(agent.id);
      expect(html).toMatch(/<button type="submit" class="button">Start free trial<\/button>/);
      expect(html).not.toContain('data-testid="trial-code"');

      expect(await redirectOf(startTrialAction(agent.id))).toBe(`/agents/${agent.id}#trial`);
      const trials = await db.rental.findMany({ where: { agentId: agent.id, renterId: accountId, trial: true } });
      expect(trials).toHaveLength(1);
      const code = trials[0].id.slice(0, 8);
      html = await render(agent.id);
      expect(html).toContain(`Your trial code: <code>${code}</code>`);
      expect(html).toContain("3 free messages left");
      expect(html).not.toContain("Start free trial");

      // A second press shows the same trial; no second row.
      expect(await redirectOf(startTrialAction(agent.id))).toBe(`/agents/${agent.id}#trial`);
      expect(await db.rental.count({ where: { agentId: agent.id, renterId: accountId, trial: true } })).toBe(1);
      expect(await render(agent.id)).toContain(`Your trial code: <code>${code}</code>`);
    });

    it("words a refusal from its code only, and ignores a code it does not know", async () => {
      const agent = await makeAgent({ webhook });
      await signInNewRenter();
      expect(await redirectOf(startTrialAction(agent.id))).toBe(`/agents/${agent.id}?trial=no-offer#trial`);
      await db.agent.update({ where: { id: agent.id }, data: { trialMessages: 2 } });
      expect(await render(agent.id, { trial: "account-day-limit" })).toContain(
        'role="alert" data-testid="trial-notice">You have started 3 free trials in the last 24 hours',
      );
      expect(await render(agent.id, { trial: "<script>" })).not.toContain("trial-notice");
    });
  });
});
