import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

// One client per process (Next.js dev reloads modules, so keep it on globalThis). The pool size
// is explicit: serverless functions must not each open dozens of connections, and the embedded
// PGlite server accepts a single one (DATABASE_POOL_MAX=1).
const globalForDb = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm run dev sets it for you)");
  const adapter = new PrismaPg({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_MAX });
  return new PrismaClient({ adapter });
}

export const db: PrismaClient = globalForDb.prisma ?? createClient();
if (env.NODE_ENV !== "production") globalForDb.prisma = db;
