-- The owner's answer to a dispute, in words: shown to the renter and the arbiter beside the
-- renter's reason. One per dispute, editable until the dispute is decided; bounded like the
-- renter's details.
ALTER TABLE "disputes" ADD COLUMN "owner_answer" TEXT,
ADD COLUMN "owner_answered_at" TIMESTAMPTZ(3);

ALTER TABLE "disputes" ADD CONSTRAINT "disputes_owner_answer_check" CHECK (char_length("owner_answer") <= 2000);

-- The arbiter console's history: decided disputes, newest first.
CREATE INDEX "disputes_resolved_at_idx" ON "disputes"("resolved_at" DESC) WHERE "resolved_at" IS NOT NULL;
