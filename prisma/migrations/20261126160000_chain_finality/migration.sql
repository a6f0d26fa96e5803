-- Money that survives a real chain (issue 24): reorgs deeper than CHAIN_CONFIRMATIONS are undone,
-- nonces the chain never used are given back, and chat users are marked told only once told.

-- A transaction holds its nonce (unique per sender) until the service gives it back: a failed
-- transaction whose nonce the chain never used lets another take it (a gap filled). The head when
-- it was signed (how many blocks it has waited) and the block that mined it (a reorg that takes the
-- block away puts it back in flight).
ALTER TABLE "chain_transactions" ADD COLUMN "held_nonce" INTEGER,
ADD COLUMN "prepared_at_block" BIGINT,
ADD COLUMN "block_number" BIGINT;

UPDATE "chain_transactions" SET "held_nonce" = "nonce";

DROP INDEX "chain_transactions_from_address_nonce_key";

CREATE UNIQUE INDEX "chain_transactions_from_address_held_nonce_key" ON "chain_transactions"("from_address", "held_nonce");

-- The hashes of the blocks the database took facts from (and read up to), within the reorg window:
-- a block whose hash changed was reorged away.
CREATE TABLE "chain_blocks" (
    "number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "chain_blocks_pkey" PRIMARY KEY ("number")
);

-- Every change a block made to a rental (and its dispute), with the values it replaced: undone,
-- newest first, when a reorg takes the block away.
CREATE TABLE "chain_facts" (
    "id" BIGSERIAL NOT NULL,
    "rental_id" UUID NOT NULL,
    "block_number" BIGINT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_facts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "chain_facts_rental_id_idx" ON "chain_facts"("rental_id");

CREATE INDEX "chain_facts_block_number_idx" ON "chain_facts"("block_number");

ALTER TABLE "chain_facts" ADD CONSTRAINT "chain_facts_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Chat users are told a dispute's outcome after the message went out: a claim (a lease, so a run
-- that stopped half-way is retried) and the chat users already told.
ALTER TABLE "disputes" ADD COLUMN "chats_claimed_at" TIMESTAMPTZ(3),
ADD COLUMN "chats_told" TEXT[] DEFAULT ARRAY[]::TEXT[];
