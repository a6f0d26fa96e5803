// The owner pages render for a signed-in owner: labelled controls, stable button names, empty
// states, and nothing of another account's.
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { cookieJar, mockedCookies, signInNewOwner } from "@/test/dashboard-session";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: Layout } = await import("@/app/dashboard/layout");
const { default: Overview } = await import("@/app/dashboard/page");
const { default: Listings } = await import("@/app/dashboard/agents/page");
const { default: NewListing } = await import("@/app/dashboard/agents/new/page");
const { default: EditListing } = await import("@/app/dashboard/agents/[id]/page");
const { default: Keys } = await import("@/app/dashboard/keys/page");
const { default: Stats } = await import("@/app/dashboard/stats/page");
const { default: Payouts } = await import("@/app/dashboard/payouts/page");

const html = (element: ReactElement) => renderToStaticMarkup(element);
const noSearch = Promise.resolve({});

// Every <input>, <select> and <textarea> (but hidden ones) has a label: a <label for> naming
// its id, or a <label> around it.
function expectLabelled(markup: string) {
  const controls = [...markup.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].filter(([, , attrs]) => !/type="hidden"/.test(attrs));
  expect(controls.length).toBeGreaterThan(0);
  for (const match of controls) {
    const [control, , attrs] = match;
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1];
    const before = markup.slice(0, match.index);
    const wrapped = before.lastIndexOf("<label") > before.lastIndexOf("</label>");
    expect((id !== undefined && markup.includes(`for="${id}"`)) || wrapped, control).toBe(true);
  }
}

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("the new-listing form: labelled fields, category defaults as skills, a Create listing button", async () => {
    const markup = html(await NewListing());
    expectLabelled(markup);
    for (const label of ["Name", "Category", "Description", "Skills", "Price per hour", "Price per day", "Price per month"]) {
      expect(markup).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    }
    expect(markup).toContain("<legend>Channels</legend>");
    expect(markup).toContain('value="scheduling, email, research"');
    expect(markup).toContain('aria-label="Remove skill email"');
    expect(markup).toMatch(/<button type="submit"[^>]*>Create listing<\/button>/);
  });
});
