"use server";
// Sign out of this browser, as POST /api/auth/sign-out does (same service), and go to /sign-in.
// A server action so the button works without JavaScript and the redirect follows at once.
// The one dashboard action outside the actions' wrapper (lib/actions/action.ts) and without
// limitAction, on purpose: it must work for a session that is already gone (the cookie is still
// cleared), and ending a session must never be refused (a person who fears a stolen session signs
// out). The work it can cause is bounded anyway: each session is revoked once, and sessions are
// only made by the sign-in routes, which are limited per client IP.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { currentSession } from "@/lib/auth/current-account";
import { revokeSession } from "@/lib/auth/revoke-sessions";
import { SESSION_COOKIE, sessionCookieIsSecure } from "@/lib/auth/session-cookie";

export async function signOutAction(): Promise<void> {
  const store = await cookies();
  const current = await currentSession(store);
  if (current) await revokeSession(current.session.id);
  store.set(SESSION_COOKIE, "", {
    path: "/",
    maxAge: 0,
    httpOnly: true,
    sameSite: "lax",
    secure: sessionCookieIsSecure(),
  });
  redirect("/sign-in");
}
