// The webhook contract's page as the server renders it: the message of an answer someone paid for
// (its example is held to a real delivery in lib/docs/webhook-examples.test.ts).
import { describe, expect, it } from "vitest";
import WebhookDocsPage from "@/app/docs/webhooks/page";
import { Channel } from "@/lib/generated/prisma/enums";
import { html, textOf } from "@/test/dashboard-pages";

describe("/docs/webhooks", () => {
  it("names every channel a message comes from, and the trial flag", () => {
    const page = textOf(html(WebhookDocsPage()));
    for (const channel of Object.values(Channel)) expect(page).toContain(channel);
    expect(page).toContain("only on the messages of a free trial you offer");
  });

  it("An answer someone paid for: rental null, the payment, X-Payment-Ref, the session key per wallet, paid only for a 2xx", () => {
    const page = textOf(html(WebhookDocsPage()));
    expect(page).toContain("An answer someone paid for");
    expect(page).toContain('"rental": null');
    expect(page).toContain("X-Payment-Ref: mp_");
    expect(page).toContain("sent instead of X-Rental-Ref");
    expect(page).toContain("the same on every message that wallet buys from this agent");
    expect(page).toContain(
      "Any other answer, or none in time, sells nothing: the caller gets the error and pays nothing, and you are not paid.",
    );
  });
});
