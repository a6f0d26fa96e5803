-- Free trials (issue 29, docs/trials.md): an owner may let each renter send a few messages free.
-- A trial is a rentals row (status active, no escrow, no payment) so the whole chat path — the
-- renter API, the playground, the bots and A2A — works with its code.

-- Messages per renter, 1–20; null: no trial offered.
ALTER TABLE "agents" ADD COLUMN "trial_messages" INTEGER;
ALTER TABLE "agents" ADD CONSTRAINT "agents_trial_messages_range" CHECK ("trial_messages" IS NULL OR "trial_messages" BETWEEN 1 AND 20);

-- The trial marker never changes after the insert; the messages left are spent one at a time by
-- an atomic UPDATE … WHERE trial_messages_left > 0, so they can never go below zero.
ALTER TABLE "rentals"
  ADD COLUMN "trial" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "trial_messages_left" INTEGER,
  ADD COLUMN "trial_client" TEXT;
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_trial_messages_left" CHECK (
  ("trial" AND "trial_messages_left" IS NOT NULL AND "trial_messages_left" >= 0 AND "price_micro_usdc" = 0 AND "fee_micro_usdc" = 0)
  OR (NOT "trial" AND "trial_messages_left" IS NULL)
);

-- One trial per account per agent, ever (a deleted account's trials keep renter_id null and no
-- longer block anyone).
CREATE UNIQUE INDEX "rentals_one_trial_per_renter_and_agent" ON "rentals"("agent_id", "renter_id") WHERE "trial";
-- The day limits count an account's and an address's trials of the last 24 hours.
CREATE INDEX "rentals_trials_by_renter_idx" ON "rentals"("renter_id", "created_at") WHERE "trial";
CREATE INDEX "rentals_trials_by_client_idx" ON "rentals"("trial_client", "created_at") WHERE "trial";

-- The marketplace's rental counts (agents.rental_count) leave trials out: nobody rented anything.
-- The trial marker is set at the insert and never changes, so the triggers' conditions stay right.
CREATE OR REPLACE FUNCTION "agents_count_rentals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" <> 'pending' AND NOT OLD."trial" THEN
    UPDATE "agents" SET "rental_count" = "rental_count" - 1 WHERE "id" = OLD."agent_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" <> 'pending' AND NOT NEW."trial" THEN
    UPDATE "agents" SET "rental_count" = "rental_count" + 1 WHERE "id" = NEW."agent_id";
  END IF;
  RETURN NULL;
END $$;
