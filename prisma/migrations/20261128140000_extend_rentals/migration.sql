-- Extending a running rental (issue 29, docs/extend.md): one row per signed extension quote. The
-- rental's ends_at, price and fee are moved by the escrow's RentalExtended event; this row records
-- what was quoted, which transaction redeemed it, and when the owner's webhook was told.
CREATE TABLE "rental_extensions" (
    "id" UUID NOT NULL,
    "rental_id" UUID NOT NULL,
    "duration_type" "DurationType" NOT NULL,
    "periods" INTEGER NOT NULL,
    "added_seconds" INTEGER NOT NULL,
    "added_price_micro_usdc" BIGINT NOT NULL,
    "fee_micro_usdc" BIGINT NOT NULL,
    "from_ends_at" TIMESTAMPTZ(3) NOT NULL,
    "deadline" TIMESTAMPTZ(3) NOT NULL,
    "tx_hash" TEXT,
    "applied_at" TIMESTAMPTZ(3),
    "notified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rental_extensions_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "rental_extensions_rental_id_from_ends_at_idx" ON "rental_extensions"("rental_id", "from_ends_at");

ALTER TABLE "rental_extensions" ADD CONSTRAINT "rental_extensions_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
