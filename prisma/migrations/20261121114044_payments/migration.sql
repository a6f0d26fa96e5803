-- AlterTable
ALTER TABLE "rentals" ADD COLUMN     "create_tx_hash" TEXT,
ADD COLUMN     "payout_address" TEXT,
ADD COLUMN     "quote_deadline" TIMESTAMPTZ(3),
ADD COLUMN     "release_tx_id" UUID,
ADD COLUMN     "renter_address" TEXT;

-- CreateTable
CREATE TABLE "chain_transactions" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "nonce" INTEGER NOT NULL,
    "hash" TEXT,
    "raw_tx" TEXT,
    "replaced_hashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "confirmed_at" TIMESTAMPTZ(3),

    CONSTRAINT "chain_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_cursors" (
    "name" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "rental_id" UUID,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chain_transactions_status_idx" ON "chain_transactions"("status");

-- CreateIndex
CREATE UNIQUE INDEX "chain_transactions_from_address_nonce_key" ON "chain_transactions"("from_address", "nonce");

-- CreateIndex
CREATE INDEX "notifications_account_id_created_at_idx" ON "notifications"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_account_id_kind_rental_id_key" ON "notifications"("account_id", "kind", "rental_id");

-- CreateIndex
CREATE UNIQUE INDEX "rentals_create_tx_hash_key" ON "rentals"("create_tx_hash");

-- CreateIndex
CREATE INDEX "rentals_release_tx_id_idx" ON "rentals"("release_tx_id");

-- AddForeignKey
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_release_tx_id_fkey" FOREIGN KEY ("release_tx_id") REFERENCES "chain_transactions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
