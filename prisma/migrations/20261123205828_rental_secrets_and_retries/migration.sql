-- AlterTable
ALTER TABLE "emails" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3);

-- E-mails that never got through are retried by the retry cron from now on.
UPDATE "emails" SET "attempts" = 1, "next_attempt_at" = now() WHERE "status" IN ('pending', 'failed');

-- AlterTable
ALTER TABLE "rentals" ADD COLUMN     "claim_secret_hash" TEXT,
ADD COLUMN     "escrow_id" TEXT,
ADD COLUMN     "release_retry_at" TIMESTAMPTZ(3),
ADD COLUMN     "release_skips" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "session_key" TEXT;

-- Rentals created so far were paid (or quoted) under their UUID, left-aligned in 32 bytes: that is
-- what the escrow holds for them, so it stays their escrow id. New rentals get a random one.
UPDATE "rentals" SET "escrow_id" = '0x' || replace("id"::text, '-', '') || repeat('0', 32);
-- The old session key was built from the rental id; every rental gets a random one (owners' agents
-- start a fresh conversation for rentals created before this migration).
UPDATE "rentals" SET "session_key" = 'rental_' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');

ALTER TABLE "rentals" ALTER COLUMN "escrow_id" SET NOT NULL,
ALTER COLUMN "session_key" SET NOT NULL;

-- CreateIndex
CREATE INDEX "emails_status_next_attempt_at_idx" ON "emails"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "rentals_escrow_id_key" ON "rentals"("escrow_id");
