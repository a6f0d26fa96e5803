"use server";
// Server actions of the API keys page: every key belongs to the signed-in account, and every
// action spends from the account's action rate limit (limitAction).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { revokeAccountApiKey } from "@/lib/accounts/revoke-account-api-key";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { failed, invalid, type FormState } from "@/lib/dashboard/owner/form-errors";
import { limitAction } from "@/lib/ratelimit/limit-action";

export type CreateKeyState = FormState | { ok: true; message: string; apiKey: string; prefix: string };

const labelSchema = z.object({
  label: z
    .string()
    .trim()
    .max(60, "must be at most 60 characters")
    .transform((v) => v || undefined),
});

/** The key is in this answer only: it is stored as a hash and can never be shown again. */
export async function createApiKeyAction(_prev: CreateKeyState | null, form: FormData): Promise<CreateKeyState> {
  const account = await requireSignedInAccount();
  const limited = await limitAction(account.id);
  if (limited) return limited;
  const parsed = labelSchema.safeParse({ label: form.get("label") ?? "" });
  if (!parsed.success) return invalid(parsed.error);
  try {
    const { apiKey, prefix } = await issueApiKey(account.id, parsed.data.label);
    revalidatePath("/dashboard/keys");
    return { ok: true, message: `Key ${prefix}… created. Copy it now: it will not be shown again.`, apiKey, prefix };
  } catch (error) {
    return failed(error, "create the key");
  }
}

export async function revokeApiKeyAction(_prev: FormState | null, form: FormData): Promise<FormState> {
  const account = await requireSignedInAccount();
  const limited = await limitAction(account.id);
  if (limited) return limited;
  try {
    const { prefix } = await revokeAccountApiKey(account.id, String(form.get("keyId") ?? ""));
    revalidatePath("/dashboard/keys");
    return { ok: true, message: `Key ${prefix}… is revoked; requests with it are refused from now on.` };
  } catch (error) {
    return failed(error, "revoke the key");
  }
}
