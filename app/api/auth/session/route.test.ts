import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/auth/session/route";
import { POST as SIGN_OUT } from "@/app/api/auth/sign-out/route";
import { hashAuthToken } from "@/lib/auth/auth-token";
import { currentAccount, currentSession } from "@/lib/auth/current-account";
import { db } from "@/lib/db";
import { authRequest, newWallet, signInWithWallet } from "@/test/auth-fixtures";

const session = (cookie?: string) => GET(authRequest("session", { cookie }));
// As this site's own pages send it (cross-site sign-outs: app/api/auth/sign-out/route.test.ts).
const signOut = (cookie: string | undefined, body?: unknown, options: Parameters<typeof authRequest>[1] = {}) =>
  SIGN_OUT(
    authRequest("sign-out", {
      method: "POST",
      cookie,
      body,
      ...options,
      headers: { "sec-fetch-site": "same-origin", ...options.headers },
    }),
  );
const tokenOf = (cookie: string) => cookie.slice("ars_session=".length);

async function notSignedIn(res: Response, clearsCookie: boolean) {
  expect(res.status).toBe(401);
  expect((await res.json()).error).toBe("You are not signed in, or your session has ended. Sign in again at /sign-in.");
  if (clearsCookie) expect(res.headers.get("set-cookie")).toMatch(/^ars_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
  else expect(res.headers.get("set-cookie")).toBeNull();
}

describe("GET /api/auth/session", () => {
  it("200: the signed-in account and when the session ends", async () => {
    const wallet = newWallet();
    const { cookie, accountId } = await signInWithWallet(wallet);
    const res = await session(cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.account).toEqual({ id: accountId, walletAddress: wallet.address.toLowerCase(), email: null });
    const row = await db.session.findUniqueOrThrow({ where: { tokenHash: hashAuthToken(tokenOf(cookie)) } });
    expect(body.session.expiresAt).toBe(new Date(row.createdAt.getTime() + 30 * 86_400_000).toISOString());
  });

  it("401 in words: no cookie (nothing to clear), an unknown or malformed one (cleared)", async () => {
    await notSignedIn(await session(), false);
    await notSignedIn(await session(`ars_session=${"A".repeat(43)}`), true);
    await notSignedIn(await session("ars_session=short"), true);
  });

  it("401: an expired session", async () => {
    const { cookie } = await signInWithWallet();
    await db.session.update({
      where: { tokenHash: hashAuthToken(tokenOf(cookie)) },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    await notSignedIn(await session(cookie), true);
  });

  it("finds the cookie among others, and reads Next's cookie store (server components)", async () => {
    const { cookie, accountId } = await signInWithWallet();
    expect((await session(`theme=dark; ${cookie}; other=1`)).status).toBe(200);
    const store = { get: (name: string) => (name === "ars_session" ? { value: tokenOf(cookie) } : undefined) };
    expect((await currentAccount(store))?.id).toBe(accountId);
    expect(await currentAccount({ get: () => undefined })).toBeNull();
  });

  it("records lastSeenAt at most every 5 minutes", async () => {
    const { cookie } = await signInWithWallet();
    const where = { tokenHash: hashAuthToken(tokenOf(cookie)) };
    const signedInAt = (await db.session.findUniqueOrThrow({ where })).createdAt.getTime();
    const lastSeen = async () => (await db.session.findUniqueOrThrow({ where })).lastSeenAt.getTime();
    const readAt = (now: number) => currentSession(authRequest("session", { cookie }), now);
    expect(await lastSeen()).toBe(signedInAt);
    // Exactly 5 minutes later is not yet "more than 5 minutes".
    await readAt(signedInAt + 5 * 60_000);
    expect(await lastSeen()).toBe(signedInAt);
    await readAt(signedInAt + 5 * 60_000 + 1);
    expect(await lastSeen()).toBe(signedInAt + 5 * 60_000 + 1);
    await readAt(signedInAt + 6 * 60_000);
    expect(await lastSeen()).toBe(signedInAt + 5 * 60_000 + 1);
  });
});

describe("POST /api/auth/sign-out", () => {
  it("204: ends this session only, and clears the cookie", async () => {
    const wallet = newWallet();
    const laptop = await signInWithWallet(wallet);
    const phone = await signInWithWallet(wallet);
    const res = await signOut(laptop.cookie);
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toBe("ars_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    await notSignedIn(await session(laptop.cookie), true);
    expect((await session(phone.cookie)).status).toBe(200);
    const row = await db.session.findUniqueOrThrow({ where: { tokenHash: hashAuthToken(tokenOf(laptop.cookie)) } });
    expect(row.revokedAt).not.toBeNull();
  });

  it("204 with {everywhere:true}: revokes every session of the account; old cookies are refused", async () => {
    const wallet = newWallet();
    const a = await signInWithWallet(wallet);
    const b = await signInWithWallet(wallet);
    const c = await signInWithWallet(wallet);
    const bystander = await signInWithWallet();
    expect((await signOut(b.cookie, { everywhere: true })).status).toBe(204);
    for (const { cookie } of [a, b, c]) await notSignedIn(await session(cookie), true);
    expect(await db.session.count({ where: { accountId: a.accountId, revokedAt: null } })).toBe(0);
    expect(await db.session.count({ where: { accountId: a.accountId } })).toBe(3);
    expect((await session(bystander.cookie)).status).toBe(200);
    // Signing in again afterwards works as before.
    expect((await session((await signInWithWallet(wallet)).cookie)).status).toBe(200);
  });

  it("{everywhere:false} and a bare POST end this session only", async () => {
    const wallet = newWallet();
    const a = await signInWithWallet(wallet);
    const b = await signInWithWallet(wallet);
    expect((await signOut(a.cookie, { everywhere: false })).status).toBe(204);
    expect((await session(b.cookie)).status).toBe(200);
    expect((await signOut(b.cookie)).status).toBe(204);
    await notSignedIn(await session(b.cookie), true);
  });

  it("204 and a cleared cookie even when not signed in; 400 for a body that is not the schema", async () => {
    const res = await signOut(undefined, { everywhere: true });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    const { cookie } = await signInWithWallet();
    const bad = await signOut(cookie, { everywhere: "yes" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("everywhere: must be true or false");
    const form = await signOut(cookie, undefined, {
      rawBody: "everywhere=true",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect((await session(cookie)).status).toBe(200); // a refused sign-out changed nothing
  });
});
