"use server";
// Server actions of the API keys page, on the actions' wrapper (lib/actions/action.ts): every key
// belongs to the signed-in account, and every action spends from the account's action budget.
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { revokeAccountApiKey } from "@/lib/accounts/revoke-account-api-key";
import { action } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { apiKeyLabelSchema, apiKeyRevokeSchema } from "@/lib/schemas/api-key";

export type CreateKeyState = FormState | { ok: true; message: string; apiKey: string; prefix: string };

/** The key is in this answer only: it is stored as a hash and can never be shown again. */
export const createApiKeyAction = action(
  { input: apiKeyLabelSchema, what: "create the key", revalidate: ["/dashboard/keys"] },
  async ({ account, input }): Promise<CreateKeyState> => {
    const { apiKey, prefix } = await issueApiKey(account.id, input.label);
    return { ok: true, message: `Key ${prefix}… created. Copy it now: it will not be shown again.`, apiKey, prefix };
  },
);

export const revokeApiKeyAction = action(
  { input: apiKeyRevokeSchema, what: "revoke the key", revalidate: ["/dashboard/keys"] },
  async ({ account, input }): Promise<FormState> => {
    const { prefix } = await revokeAccountApiKey(account.id, input.keyId);
    return { ok: true, message: `Key ${prefix}… is revoked; requests with it are refused from now on.` };
  },
);
