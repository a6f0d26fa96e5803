import type { SignedInAccount } from "@/lib/auth/current-account";
import { shortHex } from "@/lib/chain/short-hex";

/**
 * How the site names the signed-in account: its e-mail address, else its wallet shortened to
 * 0x1234…abcd. `full` is the whole address, for a title attribute.
 */
export function accountLabel(account: Pick<SignedInAccount, "email" | "walletAddress">): {
  short: string;
  full: string | undefined;
} {
  const wallet = account.walletAddress;
  const short = account.email ?? (wallet ? shortHex(wallet) : "your account");
  return { short, full: account.email ?? wallet ?? undefined };
}
