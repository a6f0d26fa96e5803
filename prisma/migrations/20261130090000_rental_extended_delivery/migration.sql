-- The owner's rental.extended call, for the delivery log: when it was made and how the webhook answered.
ALTER TABLE "rental_extensions"
  ADD COLUMN "notify_attempted_at" TIMESTAMPTZ(3),
  ADD COLUMN "notify_status_code" INTEGER,
  ADD COLUMN "notify_error" TEXT,
  ADD COLUMN "notify_latency_ms" INTEGER;
