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

export const emailSignInSchema = z.strictObject(
  {
    email: z
      .string({ error: required("must be an e-mail address") })
      .trim()
      .max(254, "must be at most 254 characters")
      .pipe(z.email({ error: "must be an e-mail address such as you@example.com" }))
      .transform((email) => email.toLowerCase()),
  },
  { error: strictObjectError(["email"]) },
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
