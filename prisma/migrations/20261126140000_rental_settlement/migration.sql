-- When and in which transaction the escrow paid a rental out (the payouts history shows the
-- event's real time, not the rental's scheduled end). Rentals settled before this stay null: the
-- history shows "Not recorded" for what is not backfilled below.
ALTER TABLE "rentals" ADD COLUMN "settled_at" TIMESTAMPTZ(3),
ADD COLUMN "settle_tx_hash" TEXT;

-- What was already known: a release the service sent and saw confirmed, and a dispute refunded in
-- full (its outcome's transaction paid the renter back).
UPDATE "rentals" r SET "settled_at" = t."confirmed_at", "settle_tx_hash" = lower(t."hash")
  FROM "chain_transactions" t
 WHERE r."release_tx_id" = t."id" AND t."status" = 'confirmed' AND r."status" = 'completed' AND r."settled_at" IS NULL;
UPDATE "rentals" r SET "settled_at" = d."resolved_at", "settle_tx_hash" = lower(d."resolve_tx_hash")
  FROM "disputes" d
 WHERE d."rental_id" = r."id" AND d."resolved_at" IS NOT NULL AND r."status" = 'cancelled' AND r."settled_at" IS NULL;
