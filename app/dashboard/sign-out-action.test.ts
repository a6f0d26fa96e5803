import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { cookieJar, mockedCookies, redirectOf, signInNewOwner } from "@/test/dashboard-session";

vi.mock("next/headers", () => ({ cookies: async () => mockedCookies() }));

const { signOutAction } = await import("@/app/dashboard/sign-out-action");

describe("signOutAction", () => {
  it("revokes this browser's session, clears the cookie and goes to /sign-in", async () => {
    const owner = await signInNewOwner();
    cookieJar.set = [];
    expect(await redirectOf(signOutAction())).toBe("/sign-in");
    const sessions = await db.session.findMany({ where: { accountId: owner.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0].revokedAt).not.toBeNull();
    expect(cookieJar.set).toEqual([
      {
        name: "ars_session",
        value: "",
        options: expect.objectContaining({ maxAge: 0, path: "/", httpOnly: true, sameSite: "lax" }),
      },
    ]);
  });

  it("signed out already: still clears the cookie and redirects", async () => {
    cookieJar.value = undefined;
    cookieJar.set = [];
    expect(await redirectOf(signOutAction())).toBe("/sign-in");
    expect(cookieJar.set).toHaveLength(1);
  });
});
