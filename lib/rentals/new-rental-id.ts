import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { uuidRangeForPrefix } from "@/lib/rentals/parse-rental-code";

// A fresh UUIDv4 whose first 8 hex characters no other rental has, so an 8-character rental
// code never becomes ambiguous for new rentals.
export async function newRentalId(): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const id = randomUUID();
    const [low, high] = uuidRangeForPrefix(id.slice(0, 8));
    const clash = await db.rental.findFirst({ where: { id: { gte: low, lte: high } }, select: { id: true } });
    if (!clash) return id;
  }
  throw new Error("Could not draw a rental id with a unique 8-character prefix");
}
