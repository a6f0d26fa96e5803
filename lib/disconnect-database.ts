import type { Pool } from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";

// Where lib/db.ts keeps the process's one client (globalThis: Next.js dev reloads modules, and
// the route bundles and scripts/server.ts each load their own copy of the module).
export const databaseHolder = globalThis as unknown as { prisma?: PrismaClient; pool?: Pool };

// Closes the client's connection pool, if a client was ever created. No "server-only" here:
// scripts/server.ts calls it at shutdown, outside Next.js's react-server condition.
export async function disconnectDatabase(): Promise<void> {
  await databaseHolder.prisma?.$disconnect();
}
