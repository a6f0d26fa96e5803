import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueSiweNonce, SIWE_NONCE_PATTERN, SIWE_NONCE_TTL_MS } from "@/lib/auth/issue-siwe-nonce";
import { db } from "@/lib/db";
import { isolateDatabase } from "@/test/private-database";

// issueSiweNonce deletes every nonce expired a day before its clock: in the shared database another
// file's sign-in (on the real clock) deleted this file's rows between writing and reading them, so
// this file has a database of its own.
isolateDatabase("issue_siwe_nonce");

const NOW = new Date("2024-03-01T12:00:00.000Z");
const DAY = 86_400_000;

describe("issueSiweNonce", () => {
  it("stores a fresh nonce valid for exactly 10 minutes from the clock it is given", async () => {
    const { nonce, expiresAt } = await issueSiweNonce(NOW);
    expect(nonce).toMatch(SIWE_NONCE_PATTERN);
    expect(SIWE_NONCE_TTL_MS).toBe(10 * 60_000);
    expect(expiresAt.getTime()).toBe(NOW.getTime() + 10 * 60_000);
    const row = await db.authNonce.findUniqueOrThrow({ where: { nonce } });
    expect(row).toMatchObject({ createdAt: NOW, expiresAt, usedAt: null });
  });

  it("deletes nonces that expired more than a day before now, and keeps the rest", async () => {
    const stale = randomBytes(16).toString("hex");
    const kept = randomBytes(16).toString("hex");
    await db.authNonce.createMany({
      data: [
        {
          nonce: stale,
          createdAt: new Date(NOW.getTime() - DAY - 600_001),
          expiresAt: new Date(NOW.getTime() - DAY - 1),
        },
        { nonce: kept, createdAt: new Date(NOW.getTime() - DAY - 600_000), expiresAt: new Date(NOW.getTime() - DAY) },
      ],
    });
    await issueSiweNonce(NOW);
    expect(await db.authNonce.findUnique({ where: { nonce: stale } })).toBeNull();
    expect(await db.authNonce.findUnique({ where: { nonce: kept } })).not.toBeNull();
  });
});
