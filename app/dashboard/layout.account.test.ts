// The dashboard layout for a signed-in owner: the account named, the navigation with Sign out; and
// every page sends a visitor who is not signed in to /sign-in.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { html } from "@/test/dashboard-pages";
import { cookieJar, mockedCookies, mockedHeaders, requestedPage, signInNewOwner } from "@/test/dashboard-session";
import { makeOwnerAgent } from "@/test/fixtures";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies(), headers: async () => mockedHeaders() }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { default: Layout } = await import("@/app/dashboard/layout");
const { default: Keys } = await import("@/app/dashboard/keys/page");

let owner: Awaited<ReturnType<typeof signInNewOwner>>;
beforeEach(async () => {
  owner = await signInNewOwner();
});

describe("owner dashboard pages", () => {
  it("the layout names the account and has the dashboard navigation with Sign out", async () => {
    await makeOwnerAgent(owner.id); // an owner: the menu holds the owner's items
    const markup = html(await Layout({ children: "content" }));
    expect(markup).toContain('aria-label="Dashboard"');
    for (const [href, label] of [
      ["/dashboard/agents", "Listings"],
      ["/dashboard/keys", "API keys"],
      ["/dashboard/stats", "Stats"],
      ["/dashboard/payouts", "Payouts"],
      ["/dashboard/rentals", "My rentals"],
      ["/dashboard/notifications", "Notifications"],
    ]) {
      expect(markup).toContain(`href="${href}">${label}</a>`);
    }
    expect(markup).toMatch(/<button type="submit">Sign out<\/button>/);
    expect(markup).toContain(owner.email);
  });

  it("the layout and pages send a visitor who is not signed in to /sign-in", async () => {
    cookieJar.value = undefined;
    await expect(Layout({ children: null })).rejects.toMatchObject({ digest: expect.stringContaining("/sign-in") });
    await expect(Keys()).rejects.toMatchObject({ digest: expect.stringContaining("/sign-in") });
  });

  it("keeps the page asked for (/sign-in?next=…), layout and page alike, and only a path on this site", async () => {
    cookieJar.value = undefined;
    const redirectFor = async (path: string | undefined) => {
      requestedPage.path = path;
      const [layout, page] = await Promise.allSettled([Layout({ children: null }), Keys()]);
      const digests = [layout, page].map((r) => (r.status === "rejected" ? (r.reason as { digest: string }).digest.split(";")[2] : null));
      expect(digests[0], path).toBe(digests[1]); // they render in parallel: either may redirect first
      return digests[0];
    };
    try {
      const deepLink = "/dashboard/rentals/0b83e3cb-1c2d-4e5f-8a9b-0c1d2e3f4a5b?from=email";
      expect(await redirectFor(deepLink)).toBe(`/sign-in?next=${encodeURIComponent(deepLink)}`);
      // A value no proxy would set (a client's own header on a request the proxy skipped) is dropped.
      expect(await redirectFor("//evil.example/dashboard")).toBe("/sign-in");
      expect(await redirectFor(undefined)).toBe("/sign-in");
    } finally {
      requestedPage.path = undefined;
    }
  });
});
