-- One sender for the work that fans out (issue 26): e-mails and chat notices are queued as rows and
-- delivered by the send-messages cron, at the provider's rate.

-- An e-mail's status may now be "queued" (waiting for the sender's first try); when its latest
-- try began, from the sender's clock.
ALTER TABLE "emails" ADD COLUMN "last_attempt_at" TIMESTAMPTZ(3);

-- A message from the service to a chat user outside any request of theirs (a rental ended, a chat
-- moved or disconnected, a dispute decided): one row per event (idempotency_key), sent at most once.
CREATE TABLE "chat_notices" (
    "id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "platform" "Channel" NOT NULL,
    "chat_user" TEXT NOT NULL,
    "chat_id" TEXT,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_notices_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "chat_notices_idempotency_key_key" ON "chat_notices"("idempotency_key");
CREATE INDEX "chat_notices_status_next_attempt_at_idx" ON "chat_notices"("status", "next_attempt_at");
CREATE INDEX "chat_notices_created_at_idx" ON "chat_notices"("created_at");

-- The provider's rate, shared by every server: the next free send slot per sender (e.g. one
-- Resend API key). A send takes the slot and moves it on by 1/rate seconds; a 429 moves it to
-- the provider's Retry-After.
CREATE TABLE "send_pacers" (
    "name" TEXT NOT NULL,
    "next_slot_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "send_pacers_pkey" PRIMARY KEY ("name")
);
