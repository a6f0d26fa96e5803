import "server-only";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

// Creates an owner account with its first API key (the key is returned once, never stored).
export async function createOwnerAccount(input: { email: string; walletAddress?: string }) {
  const email = input.email.toLowerCase();
  const walletAddress = input.walletAddress?.toLowerCase();
  const taken = await db.account.findFirst({
    where: { OR: [{ email }, ...(walletAddress ? [{ walletAddress }] : [])] },
    select: { id: true },
  });
  if (taken) throw new ApiError(409, "An account with this e-mail or wallet address already exists.");
  const account = await db.account.create({
    data: { email, walletAddress },
  });
  const { apiKey } = await issueApiKey(account.id);
  return { accountId: account.id, apiKey };
}
