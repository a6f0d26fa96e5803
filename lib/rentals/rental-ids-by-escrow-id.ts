import "server-only";
import type { Hex } from "viem";
import { db } from "@/lib/db";

// Maps escrow ids read from the chain to our rental ids; ids that are not ours are left out.
export async function rentalIdsByEscrowId(escrowIds: readonly Hex[]): Promise<Map<string, string>> {
  if (escrowIds.length === 0) return new Map();
  const rows = await db.rental.findMany({
    where: { escrowId: { in: escrowIds.map((id) => id.toLowerCase()) } },
    select: { id: true, escrowId: true },
  });
  return new Map(rows.map((row) => [row.escrowId, row.id]));
}

export async function rentalIdByEscrowId(escrowId: Hex): Promise<string | null> {
  return (await rentalIdsByEscrowId([escrowId])).get(escrowId.toLowerCase()) ?? null;
}
