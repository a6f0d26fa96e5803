-- Pay for the service you got (docs/availability.md): each listing's uptime guarantee, copied to
-- every rental at quote time; each rental's measured minutes and down minutes as run lists
-- (flat [from, to) pairs of minute indexes counted from the rental's start, so a month is a few
-- hundred bytes, not a row per minute); how far the rule on real chat calls has been applied; and
-- what the escrow's RentalSettled event recorded (the refund and the down-minute list's hash).
ALTER TABLE "agents" ADD COLUMN "guarantee_permille" INTEGER NOT NULL DEFAULT 990,
ADD COLUMN "probed_minute" TIMESTAMPTZ(3);

ALTER TABLE "agents" ADD CONSTRAINT "agents_guarantee_permille_check" CHECK ("guarantee_permille" BETWEEN 900 AND 999);

ALTER TABLE "rentals" ADD COLUMN "guarantee_permille" INTEGER NOT NULL DEFAULT 990,
ADD COLUMN "minutes_measured" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN "minutes_down" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN "calls_checked_until" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "availability_refund_micro_usdc" BIGINT,
ADD COLUMN "sla_hash" TEXT;

ALTER TABLE "rentals" ADD CONSTRAINT "rentals_guarantee_permille_check" CHECK ("guarantee_permille" BETWEEN 900 AND 999);

-- The rule on real chat calls reads a rental's calls a minute at a time.
DROP INDEX "chat_calls_rental_id_idx";
CREATE INDEX "chat_calls_rental_id_created_at_idx" ON "chat_calls"("rental_id", "created_at");
