import "server-only";
import { cache } from "react";
import { getAddress } from "viem";
import type { SignedInAccount } from "@/lib/auth/current-account";
import { holdsArbiterRole } from "@/lib/chain/holds-arbiter-role";

/** "unknown": the chain did not answer, so the role could not be read (treated as no role). */
export type ArbiterRole = "arbiter" | "not-arbiter" | "unknown";

/**
 * Whether this browser may use the arbiter console now: it signed in with its wallet (an e-mail
 * sign-in proves no wallet, whatever address the account has on file) and that wallet holds
 * ARBITER_ROLE on the escrow at this moment, read on chain. Nothing is kept between requests, so
 * a role revoked on chain counts from the next one; within one request the dashboard's menu and
 * the console share a single read.
 */
export const checkArbiterRole = cache(async (account: SignedInAccount): Promise<ArbiterRole> => {
  if (account.signedInWith !== "siwe" || !account.walletAddress) return "not-arbiter";
  try {
    return (await holdsArbiterRole(getAddress(account.walletAddress))) ? "arbiter" : "not-arbiter";
  } catch (error) {
    console.error("[auth] could not read ARBITER_ROLE from the escrow", error instanceof Error ? error.name : error);
    return "unknown";
  }
});
