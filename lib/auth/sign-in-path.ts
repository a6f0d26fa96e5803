import { type SignInErrorCode, signInNextSchema } from "@/lib/schemas/auth";

/** Where a sign-in lands when no page was asked for. */
export const AFTER_SIGN_IN = "/dashboard";

/**
 * A `next` taken from a request (query, form, header) when it is a path on this site, else null:
 * every reader of it checks it here, so no sign-in can redirect to another site.
 */
export function readSignInNext(value: unknown): string | null {
  const parsed = signInNextSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The sign-in page, keeping the page the visitor asked for (`/sign-in?next=…`) and why a link failed. */
export function signInPath({ next, error }: { next?: string | null; error?: SignInErrorCode }): string {
  const query = new URLSearchParams();
  if (error) query.set("error", error);
  if (next) query.set("next", next);
  const search = query.toString();
  return search ? `/sign-in?${search}` : "/sign-in";
}
