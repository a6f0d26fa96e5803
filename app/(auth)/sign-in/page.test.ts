import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInWithWallet } from "@/test/auth-fixtures";

// The cookie store next/headers would hand the page during a request.
let cookieValue: string | undefined;
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "ars_session" && cookieValue ? { name, value: cookieValue } : undefined),
  }),
}));

const { default: SignInPage } = await import("@/app/(auth)/sign-in/page");
const render = async (error?: string, next?: string) =>
  renderToStaticMarkup(
    await SignInPage({
      searchParams: Promise.resolve({ ...(error === undefined ? {} : { error }), ...(next === undefined ? {} : { next }) }),
    }),
  );

beforeEach(() => {
  cookieValue = undefined;
});

describe("/sign-in", () => {
  it("offers the wallet button and the e-mail form, with labels", async () => {
    const html = await render();
    expect(html).toContain("<h1>Sign in</h1>");
    expect(html).toMatch(/<button type="button"[^>]*>Sign in with wallet<\/button>/);
    const [, inputId] = /<label for="([^"]+)">E-mail address<\/label>/.exec(html)!;
    const input = new RegExp(`<input id="${inputId}"[^>]*>`).exec(html)![0];
    expect(input).toMatch(/type="email"/);
    expect(input).toMatch(/name="email"/);
    expect(input).toMatch(/autoComplete="email"/i);
    expect(input).toMatch(/required/);
    expect(html).toContain("E-mail me a sign-in link");
    expect(html).not.toContain('role="alert"');
  });

  it("says why an e-mailed link failed, for known codes only", async () => {
    expect(await render("link-expired")).toContain("That sign-in link has expired (links work for 15 minutes).");
    expect(await render("link-used")).toContain("already been used (each link works once)");
    expect(await render("link-invalid")).toContain("That sign-in link is not valid.");
    const crafted = await render("Your account is locked, call +1 555 0100");
    expect(crafted).toContain("Sign-in did not work; please try again.");
    expect(crafted).not.toContain("555 0100");
  });

  it("sends a signed-in visitor on to the dashboard, or to the page asked for when it is on this site", async () => {
    const { cookie } = await signInWithWallet();
    cookieValue = cookie.slice("ars_session=".length);
    const destination = async (next?: string) =>
      ((await render(undefined, next).catch((error: { digest: string }) => error)) as { digest: string }).digest.split(";")[2];
    expect(await destination()).toBe("/dashboard");
    expect(await destination("/dashboard/rentals/abc?tab=usage")).toBe("/dashboard/rentals/abc?tab=usage");
    expect(await destination("//evil.example")).toBe("/dashboard");
    expect(await destination("https://evil.example")).toBe("/dashboard");
  });

  it("in development, where no e-mail is sent, says the link lands in the dev outbox", async () => {
    expect(await render()).not.toContain("/dev/outbox");
    vi.stubEnv("NODE_ENV", "development");
    vi.stubEnv("RESEND_API_KEY", "");
    vi.resetModules();
    try {
      const { default: DevSignInPage } = await import("@/app/(auth)/sign-in/page");
      const html = renderToStaticMarkup(await DevSignInPage({ searchParams: Promise.resolve({}) }));
      expect(html).toContain('In development no e-mail is sent: the link lands in the <a href="/dev/outbox">dev outbox</a>.');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
