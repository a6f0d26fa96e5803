// The public listing page as the server renders it: the listing's uptime guarantee among its facts
// and in the rent box, in the words renters read ("99.5% uptime guarantee").
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { makeAgent } from "@/test/fixtures";

vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  connection: async () => {},
}));

const { default: AgentPage } = await import("@/app/(marketplace)/agents/[id]/page");

const render = async (id: string) => renderToStaticMarkup(await AgentPage({ params: Promise.resolve({ id }) }));

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
});
