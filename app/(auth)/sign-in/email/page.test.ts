import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ConfirmEmailSignInPage from "@/app/(auth)/sign-in/email/page";
import { hashAuthToken, newAuthToken } from "@/lib/auth/auth-token";
import { db } from "@/lib/db";

const render = async (token?: string, next?: string) =>
  renderToStaticMarkup(
    await ConfirmEmailSignInPage({
      searchParams: Promise.resolve({ ...(token === undefined ? {} : { token }), ...(next === undefined ? {} : { next }) }),
    }),
  );

async function makeLink(overrides: { usedAt?: Date; expiresAt?: Date } = {}) {
  const { token } = newAuthToken();
  const email = `confirm-${token.slice(0, 8).toLowerCase()}@example.com`;
  await db.magicLink.create({
    data: { email, tokenHash: hashAuthToken(token), expiresAt: new Date(Date.now() + 15 * 60_000), ...overrides },
  });
  return { token, email };
}

describe("/sign-in/email (where an e-mailed link lands)", () => {
  it("names the address and posts the token from a button; opening it, even twice, spends nothing", async () => {
    const { token, email } = await makeLink();
    for (let visit = 0; visit < 2; visit++) {
      const html = await render(token);
      expect(html).toContain(`This link signs in <strong>${email}</strong>`);
      expect(html).toContain(`<form action="/api/auth/email/callback" method="post">`);
      expect(html).toContain(`<input type="hidden" name="token" value="${token}"/>`);
      expect(html).toContain(`Sign in as ${email}`);
    }
    expect(await db.magicLink.findUniqueOrThrow({ where: { tokenHash: hashAuthToken(token) } })).toMatchObject({
      usedAt: null,
    });
  });

  it("posts the page the link was asked for along with the token, only when it is a path on this site", async () => {
    const { token } = await makeLink();
    const deepLink = "/dashboard/rentals/0b83e3cb-1c2d-4e5f-8a9b-0c1d2e3f4a5b?tab=usage";
    expect(await render(token, deepLink)).toContain(`<input type="hidden" name="next" value="${deepLink.replace("&", "&amp;")}"/>`);
    for (const next of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
      expect(await render(token, next), next).not.toContain('name="next"');
    }
    const used = await makeLink({ usedAt: new Date() });
    await expect(render(used.token, deepLink)).rejects.toMatchObject({
      digest: expect.stringContaining(`/sign-in?error=link-used&next=${encodeURIComponent(deepLink)}`),
    });
  });

  it("sends a used, expired, unknown or missing link back to /sign-in with the reason", async () => {
    const used = await makeLink({ usedAt: new Date() });
    const expired = await makeLink({ expiresAt: new Date(Date.now() - 1) });
    const cases: [string | undefined, string][] = [
      [used.token, "link-used"],
      [expired.token, "link-expired"],
      [newAuthToken().token, "link-invalid"],
      ["not a token", "link-invalid"],
      [undefined, "link-invalid"],
    ];
    for (const [token, reason] of cases) {
      await expect(render(token)).rejects.toMatchObject({
        digest: expect.stringContaining(`/sign-in?error=${reason}`),
      });
    }
  });
});
