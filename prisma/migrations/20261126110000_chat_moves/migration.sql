-- A rental's chat belongs to the renter: the chat account that may connect it with the code alone
-- (the first one, or the one the renter last moved it to), and the renter's one-time consent to
-- move it to another (a token made on the dashboard or checkout page, stored as its SHA-256).

-- AlterTable
ALTER TABLE "rentals" ADD COLUMN     "chat_holder" TEXT;

-- CreateTable
CREATE TABLE "chat_move_tokens" (
    "rental_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chat_move_tokens_pkey" PRIMARY KEY ("rental_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chat_move_tokens_token_hash_key" ON "chat_move_tokens"("token_hash");

-- AddForeignKey
ALTER TABLE "chat_move_tokens" ADD CONSTRAINT "chat_move_tokens_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data: rentals already connected keep their chat account: the open binding's, else the last
-- ended one's, unless the renter disconnected it on the rental's page (then nobody's, as from now on).
UPDATE "rentals" AS r
SET "chat_holder" = b."platform"::text || ':' || b."chat_user"
FROM (
    SELECT DISTINCT ON ("rental_id") "rental_id", "platform", "chat_user", "end_reason"
    FROM "chat_bindings"
    ORDER BY "rental_id", "ended_at" DESC NULLS FIRST, "created_at" DESC
) AS b
WHERE b."rental_id" = r."id" AND b."end_reason" IS DISTINCT FROM 'disconnected';
