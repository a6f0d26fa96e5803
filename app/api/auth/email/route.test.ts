import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as CALLBACK } from "@/app/api/auth/email/callback/route";
import { POST } from "@/app/api/auth/email/route";
import { GET as SESSION } from "@/app/api/auth/session/route";
import { hashAuthToken } from "@/lib/auth/auth-token";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { authRequest, sessionCookieFrom } from "@/test/auth-fixtures";
import { makeOwner } from "@/test/fixtures";

const address = (label = "owner") => `${label}-${randomBytes(5).toString("hex")}@example.com`;
const requestLink = (body: unknown) => POST(authRequest("email", { body }));
// The confirm page's button: a same-site form POST of the token.
const SAME_SITE = { "sec-fetch-site": "same-origin" };
const follow = (token: string | null, headers: Record<string, string> = SAME_SITE, fields: Record<string, string> = {}) =>
  CALLBACK(
    authRequest("email/callback", {
      method: "POST",
      rawBody: token === null ? "" : new URLSearchParams({ token, ...fields }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    }),
  );

// Addresses on other sites, written as an attacker would to get past a naive "starts with /" check.
const OFF_SITE = [
  "//evil.example/dashboard",
  "/\\evil.example",
  "/\t/evil.example",
  "/..//evil.example",
  "https://evil.example/dashboard",
  "javascript:alert(1)",
  "dashboard",
  "",
];

// The token in the newest e-mail to `to`, read from the outbox as the owner would click it.
async function linkTokenFor(to: string): Promise<string> {
  const email = await db.email.findFirstOrThrow({ where: { to }, orderBy: { createdAt: "desc" } });
  const prefix = `${appUrl()}/sign-in/email?token=`;
  expect(email.text).toContain(prefix);
  expect(email.html).toContain(`href="${prefix}`);
  return decodeURIComponent(new RegExp(`${prefix.replace(/[.?/]/g, "\\$&")}([A-Za-z0-9_%-]+)`).exec(email.text)![1]);
}

function expectRedirect(res: Response, location: string) {
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe(location);
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("POST /api/auth/email", () => {
  it("202 {sent:true}: stores the e-mail in the outbox with a one-time link; only the token's hash is kept", async () => {
    const to = address();
    const res = await requestLink({ email: `  ${to.toUpperCase()} ` });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ sent: true });
    const email = await db.email.findFirstOrThrow({ where: { to } });
    expect(email).toMatchObject({
      transport: "outbox",
      status: "outbox",
      subject: "Your sign-in link for Agent Rental Service",
    });
    expect(email.text).toContain("It works once");
    const token = await linkTokenFor(to);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const link = await db.magicLink.findUniqueOrThrow({ where: { tokenHash: hashAuthToken(token) } });
    expect(link.email).toBe(to);
    expect(email.idempotencyKey).toBe(`magic-link:${link.id}`);
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(15 * 60_000);
    expect(JSON.stringify(link)).not.toContain(token);
  });

  it("answers the same for an address with an account and one without", async () => {
    const owner = await makeOwner();
    const stranger = address("stranger");
    const known = await requestLink({ email: owner.email });
    const unknown = await requestLink({ email: stranger });
    expect([known.status, await known.json()]).toEqual([202, { sent: true }]);
    expect([unknown.status, await unknown.json()]).toEqual([202, { sent: true }]);
    expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
    // Both get a link; no account is created before the link is used.
    expect(await db.email.count({ where: { to: { in: [owner.email!, stranger] } } })).toBe(2);
    expect(await db.account.count({ where: { email: stranger } })).toBe(0);
  });

  it("sends at most 5 links per address per 15 minutes; past that a 429 says when to ask again", async () => {
    const to = address("flooded");
    for (let i = 0; i < 5; i++) expect((await requestLink({ email: to })).status).toBe(202);
    for (let i = 0; i < 2; i++) {
      const refused = await requestLink({ email: to });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter > 0 && retryAfter <= 15 * 60).toBe(true);
      expect((await refused.json()).error).toMatch(
        /^5 sign-in links were sent to this address in the last 15 minutes, so no new one was sent\. Use the latest one, or ask again in \d+ minutes?\.$/,
      );
    }
    expect(await db.email.count({ where: { to } })).toBe(5);
  });

  it("400 in words for a missing or malformed address", async () => {
    const cases: [unknown, string][] = [
      [{}, "email: is required"],
      [{ email: "not-an-address" }, "email: must be an e-mail address such as you@example.com"],
      [{ email: `${"a".repeat(250)}@example.com` }, "email: must be at most 254 characters"],
      [{ email: "a@example.com", name: "x" }, 'unknown field "name"; the fields are email, next'],
      [{ email: "a@example.com", next: 42 }, "next: must be a path on this site, such as /dashboard/rentals"],
      [{ email: "a@example.com", next: `/${"a".repeat(1024)}` }, "next: must be at most 1,024 characters"],
      ...OFF_SITE.map((next): [unknown, string] => [
        { email: "a@example.com", next },
        "next: must be a path on this site, such as /dashboard/rentals",
      ]),
    ];
    for (const [body, error] of cases) {
      const res = await requestLink(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(error);
    }
  });
});

describe("the page asked for before signing in (next)", () => {
  const deepLink = "/dashboard/rentals/0b83e3cb-1c2d-4e5f-8a9b-0c1d2e3f4a5b?tab=usage";

  it("rides in the e-mailed link and the confirm form, and the callback lands there", async () => {
    const to = address("deep-link");
    expect((await requestLink({ email: to, next: deepLink })).status).toBe(202);
    const email = await db.email.findFirstOrThrow({ where: { to } });
    expect(email.text).toContain(`&next=${encodeURIComponent(deepLink)}`);
    const token = await linkTokenFor(to);
    const res = await follow(token, SAME_SITE, { next: deepLink });
    expectRedirect(res, deepLink);
    expect(sessionCookieFrom(res)).toBeTruthy();
  });

  it("a link whose next was edited to another site signs in to the dashboard instead", async () => {
    for (const next of OFF_SITE) {
      const to = address("tampered");
      await requestLink({ email: to });
      expectRedirect(await follow(await linkTokenFor(to), SAME_SITE, { next }), "/dashboard");
    }
  });

  it("a link that no longer works sends back to /sign-in keeping next, so a new link still leads there", async () => {
    const to = address("used");
    await requestLink({ email: to, next: deepLink });
    const token = await linkTokenFor(to);
    await follow(token, SAME_SITE, { next: deepLink });
    expectRedirect(await follow(token, SAME_SITE, { next: deepLink }), `/sign-in?error=link-used&next=${encodeURIComponent(deepLink)}`);
    expectRedirect(await follow("abc", SAME_SITE, { next: "//evil.example" }), "/sign-in?error=link-invalid");
  });
});

describe("POST /api/auth/email/callback", () => {
  it("303 to /dashboard with a session; creates the owner account on first use; the second use is refused", async () => {
    const to = address("new-owner");
    await requestLink({ email: to });
    const token = await linkTokenFor(to);

    const first = await follow(token);
    expectRedirect(first, "/dashboard");
    const cookie = sessionCookieFrom(first);
    expect(first.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Lax$/);
    const account = await db.account.findUniqueOrThrow({ where: { email: to } });
    const me = await SESSION(authRequest("session", { cookie }));
    expect((await me.json()).account).toEqual({ id: account.id, email: to, walletAddress: null });
    expect(await db.session.findFirst({ where: { accountId: account.id } })).toMatchObject({ method: "email" });

    const second = await follow(token);
    expectRedirect(second, "/sign-in?error=link-used");
    expect(second.headers.get("set-cookie")).toBeNull();
  });

  it("signs an existing owner into their account; two racing clicks make one session", async () => {
    const owner = await makeOwner();
    await requestLink({ email: owner.email });
    const token = await linkTokenFor(owner.email!);
    const results = await Promise.all([follow(token), follow(token)]);
    expect(results.map((r: Response) => r.headers.get("location")).sort()).toEqual(["/dashboard", "/sign-in?error=link-used"]);
    expect(await db.session.count({ where: { accountId: owner.id } })).toBe(1);
    expect(await db.account.count({ where: { email: owner.email } })).toBe(1);
  });

  it("refuses an expired link (older than 15 minutes)", async () => {
    const to = address("late");
    await requestLink({ email: to });
    const token = await linkTokenFor(to);
    await db.magicLink.update({
      where: { tokenHash: hashAuthToken(token) },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const res = await follow(token);
    expectRedirect(res, "/sign-in?error=link-expired");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.account.count({ where: { email: to } })).toBe(0);
  });

  it("refuses a form from another site, and a request that does not say where it comes from; the link stays usable", async () => {
    const to = address("csrf");
    await requestLink({ email: to });
    const token = await linkTokenFor(to);
    const sameHost = new URL(appUrl()).origin;
    const refused: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://attacker.example" },
      { origin: "null" },
      {},
    ];
    for (const headers of refused) {
      const res = await follow(token, headers);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/confirmed on this site's own page/);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    // A browser that sends only Origin, from this site.
    expectRedirect(await follow(token, { origin: sameHost }), "/dashboard");
  });

  it("refuses a missing, malformed or unknown token", async () => {
    for (const token of [null, "", "abc", randomBytes(32).toString("base64url")]) {
      const res = await follow(token);
      expectRedirect(res, "/sign-in?error=link-invalid");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });
});
