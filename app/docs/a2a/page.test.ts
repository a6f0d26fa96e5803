// The A2A page as the server renders it: where the cards and endpoints are, and the client (held
// to the real routes in lib/docs/a2a-examples.test.ts).
import { describe, expect, it } from "vitest";
import A2aDocsPage from "@/app/docs/a2a/page";
import { html, textOf } from "@/test/dashboard-pages";

describe("/docs/a2a", () => {
  it("names the marketplace's card and skill, a listing's card and endpoint, and shows the SDK client", () => {
    const page = textOf(html(A2aDocsPage()));
    expect(page).toMatch(/\/\.well-known\/agent-card\.json/);
    expect(page).toContain("find-agents");
    expect(page).toContain("/a2a/<agent id>/.well-known/agent-card.json");
    expect(page).toContain('import { ClientFactory } from "@a2a-js/sdk/client";');
    expect(page).toContain("Authorization: Bearer <code>");
  });
});
