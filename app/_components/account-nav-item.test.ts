// The site header's account item: "Sign in" for a visitor, the dashboard link and the account
// for a signed-in one (e-mail, or the shortened wallet); the header streams it in Suspense.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { revokeAllSessions } from "@/lib/auth/revoke-sessions";
import { signInWithWallet } from "@/test/auth-fixtures";
import { cookieJar, mockedCookies, signInNewOwner } from "@/test/dashboard-session";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));

const { AccountNavItem } = await import("./account-nav-item");
const { SiteHeader } = await import("./site-header");
const render = async () => renderToStaticMarkup(await AccountNavItem());

beforeEach(() => {
  cookieJar.value = undefined;
});

describe("site header account item", () => {
  it("says Sign in, linking to /sign-in, without a session", async () => {
    const html = await render();
    expect(html).toMatch(/<a href="\/sign-in">Sign in<\/a>/);
    expect(html).not.toContain("/dashboard");
  });

  it("shows the dashboard link and the account's e-mail with a session", async () => {
    const owner = await signInNewOwner();
    const html = await render();
    expect(html).toMatch(/<a href="\/dashboard">Dashboard<\/a>/);
    expect(html).toContain(`<span class="visually-hidden">Signed in as </span>${owner.email}`);
    expect(html).not.toContain("Sign in<");
  });

  it("shortens a wallet account's address", async () => {
    const { cookie, wallet } = await signInWithWallet();
    cookieJar.value = cookie.slice("ars_session=".length);
    const address = wallet.address.toLowerCase(); // stored lower-case
    const html = await render();
    expect(html).toContain(`title="${address}"`);
    expect(html).toContain(`Signed in as </span>${address.slice(0, 6)}…${address.slice(-4)}</span>`);
  });

  it("says Sign in again once the session is revoked", async () => {
    const owner = await signInNewOwner();
    await revokeAllSessions(owner.id);
    expect(await render()).toContain("Sign in");
  });

  it("the header streams the item behind a same-size placeholder", () => {
    const html = renderToStaticMarkup(SiteHeader());
    expect(html).toMatch(/<nav aria-label="Main" class="[^"]*siteHeaderNav[^"]*">/);
    expect(html).toMatch(/<li class="[^"]*siteNavAccount[^"]*" aria-hidden="true"><\/li>/);
  });
});
