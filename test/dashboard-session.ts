// For the dashboard's action tests (imported by *.test.ts only): a signed-in owner whose session
// cookie the mocked next/headers hands to requireSignedInAccount(), as a request would.
import { createSession } from "@/lib/auth/create-session";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";
import { signInWithWallet } from "@/test/auth-fixtures";
import { makeOwner } from "@/test/fixtures";

export const cookieJar: { value?: string; set: { name: string; value: string; options: Record<string, unknown> }[] } = {
  set: [],
};

export function mockedCookies() {
  return {
    get: (name: string) => (name === "ars_session" && cookieJar.value ? { name, value: cookieJar.value } : undefined),
    set: (name: string, value: string, options: Record<string, unknown> = {}) => {
      cookieJar.set.push({ name, value, options });
    },
  };
}

/** The page the request asked for, as proxy.ts tells server components (none: a request without it). */
export const requestedPage: { path?: string } = {};

/** The request headers the mocked next/headers hands out: only the page's path, when set. */
export function mockedHeaders() {
  return new Headers(requestedPage.path ? { [REQUEST_PATH_HEADER]: requestedPage.path } : {});
}

/** A new owner account, signed in: its session cookie becomes the one requests carry. */
export async function signInNewOwner() {
  const owner = await makeOwner();
  const { cookie } = await createSession(owner.id, { method: "email" });
  cookieJar.value = /^ars_session=([^;]*)/.exec(cookie)![1];
  return owner;
}

/** Runs an action that ends in redirect() and returns the path it redirected to. */
export async function redirectOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const digest = (error as { digest?: string }).digest;
    if (digest?.startsWith("NEXT_REDIRECT")) return digest.split(";")[2];
    throw error;
  }
  throw new Error("expected a redirect");
}

export function formData(fields: Record<string, string | string[]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  return form;
}

/** A new account signed in with a wallet (SIWE, as the browser does): its session cookie becomes the one requests carry. */
export async function signInNewRenter() {
  const { cookie, accountId, wallet } = await signInWithWallet();
  cookieJar.value = cookie.slice("ars_session=".length);
  return { accountId, address: wallet.address.toLowerCase() };
}

/** Signed out: requests carry no session cookie. */
export function signOutOfJar() {
  cookieJar.value = undefined;
}
