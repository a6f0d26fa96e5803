// The renters' docs page as the server renders it: "Uptime and refunds", whose worked example's
// figures come from the settlement rule (lib/docs/availability-example.ts), and
// GET /api/v1/availability with its examples and answer (run in lib/docs/renter-api-examples.test.ts).
import { describe, expect, it } from "vitest";
import RenterDocsPage from "@/app/docs/renters/page";
import { html, textOf } from "@/test/dashboard-pages";

describe("/docs/renters", () => {
  it("Uptime and refunds: the rule, the worked example and GET /api/v1/availability", () => {
    const page = textOf(html(RenterDocsPage()));
    expect(page).toContain("Uptime and refunds");
    expect(page).toContain("a minute counts as down when the agent failed its check, or when at least half of your messages");
    expect(page).toContain("A minute the service itself could not check counts as up.");
    expect(page).toContain("2.50 USDC comes back to you, the owner is paid 7.50 USDC, and the 1.00 USDC service fee goes to the service");
    expect(page).toContain("Over a month (43,200 minutes) the same guarantee allows 432 minutes down before anything is refunded");
    expect(page).toContain("GET /api/v1/availability");
    expect(page).toContain('"refund_due_usdc": "0"');
  });
});

describe("/docs/renters: reminders", () => {
  it("says when a rental's end is reminded, from the reminder cron's lead times", () => {
    const page = textOf(html(RenterDocsPage()));
    expect(page).toContain(
      "10 minutes before the end of an hour rental, 1 hour before the end of a day rental and 1 day before the end of a month rental",
    );
    expect(page).toContain("Once extended, you are reminded again before the new end.");
  });
});

describe("/docs/renters: pay per answer", () => {
  it("the 402 without a payment, the fee from MESSAGE_FEE_BPS, and the paying client (run in lib/docs/paid-answer-examples.test.ts)", () => {
    const page = textOf(html(RenterDocsPage()));
    expect(page).toContain("Pay per answer, without a rental");
    expect(page).toContain("POST /api/v1/agents/<AGENT_ID>/chat");
    expect(page).toContain("the price plus the service fee of 5% of it");
    expect(page).toContain("HTTP/1.1 402 Payment Required");
    expect(page).toContain("wrapFetchWithPayment(fetch, client)");
    expect(page).toContain("setSpendControls({ allowedAssets: [{ network, asset:");
    expect(page).toContain("nothing is charged: your signed transfer is never used");
    expect(page).toContain("/api/v1/agents/<AGENT_ID>/mcp");
  });
});

describe("/docs/renters: free trials", () => {
  it("how to get a trial code, where it works, the day limit from the code, the 402 and the status field", () => {
    const page = textOf(html(RenterDocsPage()));
    expect(page).toContain("press Start free trial on the agent's page: you get a trial code, used exactly like a rental code");
    expect(page).toContain("One trial per account per agent (pressing again shows the same one), at most 3 new trials a day.");
    expect(page).toContain('"trial": {"messages_left": 4}');
    expect(page).toContain("402A free trial's messages are used up (or its owner ended the offer)");
  });
});
