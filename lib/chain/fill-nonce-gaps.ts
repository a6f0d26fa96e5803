import "server-only";
import { chainClients } from "@/lib/chain/chain-clients";
import { freeNonces, NONCE_LOCK } from "@/lib/chain/free-nonces";
import type { Clock } from "@/lib/chain/release-ended-rentals";
import { broadcastRelease } from "@/lib/chain/send-release";
import { signOperatorTransaction } from "@/lib/chain/sign-operator-transaction";
import type { Fees } from "@/lib/chain/transaction-fees";
import { db } from "@/lib/db";

// A plain transfer's gas.
const TRANSFER_GAS = 21_000n;

/**
 * Fills every nonce gap left below the operator's transactions in flight (a nonce the database
 * gave back, or one a reorg emptied) with a zero-value transfer to itself, once the run's releases
 * have taken what gaps they could: until a gap is filled, nothing above it can be mined. Each
 * filler is recorded before it is broadcast, like a release, and followed the same way (re-sent,
 * re-signed, settled). Returns how many were sent; 0 while another sweep holds the nonce lock.
 */
export async function fillNonceGaps(fees: Fees, clock: Clock): Promise<number> {
  const { operator } = chainClients();
  const fillers = await db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${NONCE_LOCK}) AS locked`;
      if (!locked) return [];
      const { gaps, head } = await freeNonces(tx);
      const rows = [];
      for (const nonce of gaps) {
        rows.push(
          await signOperatorTransaction(tx, { kind: "filler", to: operator.address, value: 0n, nonce, gas: TRANSFER_GAS, fees, head }),
        );
      }
      return rows;
    },
    { timeout: 30_000 },
  );
  if (fillers.length > 0)
    console.warn(`[release] filled nonce gap(s) ${fillers.map((row) => row.nonce).join(", ")} with zero-value transfers`);
  let sent = 0;
  for (const row of fillers) if (await broadcastRelease(row, clock)) sent++;
  return sent;
}
