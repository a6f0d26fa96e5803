// The payouts page's per-message earnings as the server renders them: one row per UTC day with
// its answers and earnings, the settlement transactions reachable (one as a link, several behind a
// disclosure, the rest counted), and words for an owner who sold none.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageEarnings } from "./message-earnings";

const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const render = (days: Parameters<typeof MessageEarnings>[0]["earnings"]["days"], more = false) =>
  renderToStaticMarkup(createElement(MessageEarnings, { earnings: { days, more }, explorerUrl: "https://explorer.example" }));

describe("MessageEarnings", () => {
  it("lists each day with its answers, earnings and settlement transactions", () => {
    const html = render([
      { day: new Date("2026-11-22T00:00:00Z"), answers: 1, earnedMicro: 250_000n, txHashes: [tx(1)], txCount: 1 },
      { day: new Date("2026-11-20T00:00:00Z"), answers: 1204, earnedMicro: 12_040_000n, txHashes: [tx(2), tx(3)], txCount: 5 },
    ]);
    expect(html).toContain('<time dateTime="2026-11-22">22 Nov 2026 (UTC)</time>');
    expect(html).toMatch(/22 Nov 2026 \(UTC\)<\/time><\/th><td class="[^"]*">1<\/td><td class="[^"]*">0\.25 USDC<\/td>/);
    expect(html).toMatch(/20 Nov 2026 \(UTC\)<\/time><\/th><td class="[^"]*">1,204<\/td><td class="[^"]*">12\.04 USDC<\/td>/);
    expect(html).toContain(`href="https://explorer.example/tx/${tx(1)}"`);
    expect(html).toContain("<summary>5 transactions</summary>");
    expect(html).toContain(`href="https://explorer.example/tx/${tx(3)}"`);
    expect(html).toContain("and 3 more");
    expect(html).not.toContain("latest days");
    expect(
      render([{ day: new Date("2026-11-22T00:00:00Z"), answers: 1, earnedMicro: 1_000n, txHashes: [tx(1)], txCount: 1 }], true),
    ).toContain("Showing your 60 latest days with answers sold.");
  });

  it("says how to sell answers when none were sold", () => {
    expect(render([])).toMatch(/^<p>No answers sold per message yet\. Set a price per message on a listing/);
  });
});
