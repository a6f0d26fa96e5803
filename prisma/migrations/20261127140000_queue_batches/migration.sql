-- Queued batches already taken (issue 26): a health-check or probe batch delivered by QStash (or
-- run in-process) claims its id before its work starts, so a repeated delivery does nothing.
CREATE TABLE "queue_batches" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queue_batches_pkey" PRIMARY KEY ("kind","id")
);

CREATE INDEX "queue_batches_created_at_idx" ON "queue_batches"("created_at");
