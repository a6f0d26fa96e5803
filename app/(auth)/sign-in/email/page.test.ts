import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ConfirmEmailSignInPage from "@/app/(auth)/sign-in/email/page";
import { hashAuthToken, newAuthToken } from "@/lib/auth/auth-token";
import { db } from "@/lib/db";

const render = async (token?: string) =>
  renderToStaticMarkup(await ConfirmEmailSignInPage({ searchParams: Promise.resolve(token === undefined ? {} : { token }) }));

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
