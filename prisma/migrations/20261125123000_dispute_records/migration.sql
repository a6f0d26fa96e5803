-- A dispute's side of the story, kept off chain: the renter's reason and details (saved before the
-- openDispute transaction, tied to the dispute once the event reader sees it), when the chain
-- recorded it and how it ended. The chain stays the authority on money; this is what people read.
CREATE TABLE "disputes" (
    "rental_id" UUID NOT NULL,
    "reason" TEXT,
    "details" TEXT,
    "opened_at" TIMESTAMPTZ(3),
    "open_tx_hash" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "resolve_tx_hash" TEXT,
    "chats_told_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("rental_id"),
    CONSTRAINT "disputes_reason_check" CHECK ("reason" IN ('not_responding', 'incorrect_behaviour', 'poor_quality', 'other')),
    CONSTRAINT "disputes_details_check" CHECK (char_length("details") <= 2000),
    CONSTRAINT "disputes_resolved_by_check" CHECK ("resolved_by" IN ('arbiter', 'owner', 'expired'))
);

-- The arbiter console and dispute:list: open disputes, oldest first.
CREATE INDEX "disputes_opened_at_idx" ON "disputes"("opened_at") WHERE "resolved_at" IS NULL;

ALTER TABLE "disputes" ADD CONSTRAINT "disputes_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Whether the wallet that signed in held ARBITER_ROLE on the escrow at that moment (read on chain).
ALTER TABLE "sessions" ADD COLUMN "arbiter" BOOLEAN NOT NULL DEFAULT false;
