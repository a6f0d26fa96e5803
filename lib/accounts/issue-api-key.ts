import "server-only";
import { MAX_ACTIVE_API_KEYS_PER_ACCOUNT } from "@/lib/accounts/account-limits";
import { lockAccount } from "@/lib/accounts/lock-account";
import { generateApiKey } from "@/lib/crypto/api-key";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

// A new owner API key: only its SHA-256 and display prefix are stored. An account holds at most
// 20 active (unrevoked) keys; the count and the insert run under the account's row lock, so
// parallel requests cannot pass the limit together.
export async function issueApiKey(accountId: string, label?: string) {
  const { key, prefix, hash } = generateApiKey();
  await db.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
    if (active >= MAX_ACTIVE_API_KEYS_PER_ACCOUNT) {
      throw new ApiError(
        409,
        `This account already has ${MAX_ACTIVE_API_KEYS_PER_ACCOUNT} active API keys, the most it can have; revoke one you no longer use before creating another.`,
      );
    }
    await tx.apiKey.create({ data: { accountId, keyHash: hash, prefix, label } });
  });
  return { apiKey: key, prefix };
}
