import { z } from "zod";
import { formatCount } from "@/lib/format/number";
import { strictObjectError } from "@/lib/schemas/strict-object-error";

// Bodies of the sign-in routes (docs/auth.md). A Sign-In with Ethereum message is a few hundred
// characters; 4,096 leaves room for resources without inviting large bodies.
export const SIWE_MESSAGE_MAX_LENGTH = 4_096;
export const AUTH_BODY_MAX_BYTES = 16 * 1024;

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : what);

export const siweSignInSchema = z.strictObject(
  {
    message: z
      .string({ error: required("must be the signed EIP-4361 message text") })
      .min(1, "must not be empty")
      .max(SIWE_MESSAGE_MAX_LENGTH, `must be at most ${formatCount(SIWE_MESSAGE_MAX_LENGTH)} characters`),
    // 65-byte ECDSA signatures, and longer ones from smart-contract wallets (ERC-1271, ERC-6492).
    signature: z
      .string({ error: required("must be the wallet's 0x-prefixed hex signature") })
      .max(16_384, "is too long to be a signature")
      .regex(/^0x(?:[0-9a-fA-F]{2})+$/, "must be the wallet's 0x-prefixed hex signature"),
  },
  { error: strictObjectError(["message", "signature"]) },
);

// Where a visitor goes after signing in (`next`): a path on this site, never another site's
// address, or the sign-in would redirect anywhere a link chose (an open redirect). So: one "/" and
// no second "/" or "\" after it (browsers read "//host" and "/\host" as another host), printable
// ASCII only (URL parsers drop a tab or a newline, so "/\t/host" would become "//host"), and still
// on this site once resolved ("/..//host" resolves to the path "//host"). 1,024 characters are
// far more than any page's path and query here, and keep the sign-in form small.
export const SIGN_IN_NEXT_MAX_LENGTH = 1_024;
const PATH_ON_THIS_SITE = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;

export function isPathOnThisSite(value: string): boolean {
  if (!PATH_ON_THIS_SITE.test(value)) return false;
  const base = "https://this-site.invalid";
  const resolved = new URL(value, base);
  return resolved.origin === base && !resolved.pathname.startsWith("//");
}

export const signInNextSchema = z
  .string({ error: "must be a path on this site, such as /dashboard/rentals" })
  .max(SIGN_IN_NEXT_MAX_LENGTH, `must be at most ${formatCount(SIGN_IN_NEXT_MAX_LENGTH)} characters`)
  .refine(isPathOnThisSite, "must be a path on this site, such as /dashboard/rentals");

export const emailSignInSchema = z.strictObject(
  {
    email: z
      .string({ error: required("must be an e-mail address") })
      .trim()
      .max(254, "must be at most 254 characters")
      .pipe(z.email({ error: "must be an e-mail address such as you@example.com" }))
      .transform((email) => email.toLowerCase()),
    // The page the link signs in to (the dashboard when absent).
    next: signInNextSchema.optional(),
  },
  { error: strictObjectError(["email", "next"]) },
);

export const signOutSchema = z.strictObject(
  { everywhere: z.boolean({ error: "must be true or false" }).optional() },
  { error: strictObjectError(["everywhere"]) },
);

// What the API shows of an account.
export const accountViewSchema = z.object({
  id: z.uuid(),
  walletAddress: z.string().nullable(),
  email: z.string().nullable(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

export function toAccountView(account: AccountView): AccountView {
  return accountViewSchema.parse({ id: account.id, walletAddress: account.walletAddress, email: account.email });
}

// Why an e-mailed link did not sign anyone in. The callback redirects to /sign-in?error=<code>;
// the page shows the sentence of a known code only, so a crafted URL cannot put words on it.
export const SIGN_IN_ERRORS = {
  "link-invalid": "That sign-in link is not valid. Copy the whole link from the e-mail, or ask for a new one below.",
  "link-expired": "That sign-in link has expired (links work for 15 minutes). Ask for a new one below.",
  "link-used": "That sign-in link has already been used (each link works once). Ask for a new one below.",
} as const;
export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;

export function signInErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code as SignInErrorCode] : "Sign-in did not work; please try again.";
}
