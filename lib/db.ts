import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseHolder as globalForDb } from "@/lib/disconnect-database";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";

// One client per process (Next.js dev reloads modules, so keep it on globalThis; `npm start`
// closes its pool at shutdown with disconnectDatabase). The pool size is explicit: serverless
// functions must not each open dozens of connections, and the embedded PGlite server accepts a
// single one (DATABASE_POOL_MAX=1). That one is kept open (DATABASE_IDLE_TIMEOUT_MS=0): the
// server frees its slot only a moment after a client leaves, so a connection opened just after an
// idle one was closed could be refused, failing its request ("Connection terminated unexpectedly").
// An interactive transaction waits up to 10 s for one of the pool's few connections (Prisma's default,
// 2 s, failed requests in a burst with "Unable to start a transaction in the given time") and may
// run for 15 s (default 5) on a busy machine: both end well inside a chat's 30 s.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

function client(): PrismaClient {
  if (globalForDb.prisma) return globalForDb.prisma;
  if (!env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set. Set it (see .env.example), or use `npm run dev`, which sets it for you.");
  }
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    idleTimeoutMillis: env.DATABASE_IDLE_TIMEOUT_MS,
  });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  globalForDb.prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  globalForDb.pool = pool;
  return globalForDb.prisma;
}

/**
 * The client's connection pool, for a library that talks to PostgreSQL itself (the Chat SDK's
 * state, lib/channels/chat-bot.ts): one pool per process, as the embedded PGlite takes a single
 * connection, and closed with the client.
 */
export function databasePool(): pg.Pool {
  client();
  return globalForDb.pool!;
}

// Created on first use, not on import, so builds and tools that never query need no database.
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const real = client();
    const value = Reflect.get(real, property, real);
    return typeof value === "function" ? value.bind(real) : value;
  },
});
