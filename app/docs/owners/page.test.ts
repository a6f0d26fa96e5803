// The owners' docs page as the server renders it: the uptime guarantee to choose, and "Uptime and
// refunds" with the worked example from the owner's side (figures from the settlement rule).
import { describe, expect, it } from "vitest";
import OwnerDocsPage from "@/app/docs/owners/page";
import { html, textOf } from "@/test/dashboard-pages";

describe("/docs/owners", () => {
  it("Uptime and refunds: the guarantee, the rule and the worked example", () => {
    const page = textOf(html(OwnerDocsPage()));
    expect(page).toContain("Choose the uptime you guarantee, from 90% to 99.9% (99% unless you change it)");
    expect(page).toContain("Messages the service refused itself (a wrong code, the rate limit) never count against you");
    expect(page).toContain("the renter gets 2.50 USDC back, you are paid 7.50 USDC, and the 1.00 USDC service fee");
    expect(page).toContain("Over a month (43,200 minutes) the same guarantee allows 432 minutes down");
    expect(page).toContain("then the price goes to your wallet, less any refund for down minutes");
  });
});

describe("/docs/owners: free trials", () => {
  it("offering a trial (1 to 20, from the schema), the webhook's flag, the limits from the code, ending the offer", () => {
    const page = textOf(html(OwnerDocsPage()));
    expect(page).toContain("Set Free trial messages (1 to 20) on a listing, or trialMessages in the owner API");
    expect(page).toContain('with "trial": true in the body and the channel they came from');
    expect(page).toContain("A renter may start 3 trials a day, and one network address 50.");
    expect(page).toContain("every running one stops at once");
  });
});
