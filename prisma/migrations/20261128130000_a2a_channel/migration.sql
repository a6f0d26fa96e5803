-- A2A for every listing (issue 28, lib/a2a/). Messages sent through a listing's A2A endpoint are
-- recorded with channel 'A2A' (the owner's payload and stats). It is an access protocol like the
-- API, never a channel bought at checkout. PostgreSQL accepts ADD VALUE inside a transaction as
-- long as nothing in the same transaction uses the new value, and nothing here does.
ALTER TYPE "Channel" ADD VALUE 'A2A';

-- The tasks of the A2A endpoint, readable by the rental that made them for 24 hours after their
-- last change (expires_at); expired rows are deleted a few at a time as new tasks are saved.
CREATE TABLE "a2a_tasks" (
    "id" TEXT NOT NULL,
    "rental_id" UUID NOT NULL,
    "task" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "a2a_tasks_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "a2a_tasks_expires_at_idx" ON "a2a_tasks"("expires_at");

ALTER TABLE "a2a_tasks" ADD CONSTRAINT "a2a_tasks_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
