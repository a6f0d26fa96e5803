-- DropIndex
DROP INDEX "rentals_create_tx_hash_key";

-- CreateIndex
CREATE INDEX "rentals_create_tx_hash_idx" ON "rentals"("create_tx_hash");

-- CreateIndex
CREATE INDEX "rentals_status_quote_deadline_idx" ON "rentals"("status", "quote_deadline");
