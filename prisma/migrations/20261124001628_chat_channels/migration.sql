-- AlterTable
ALTER TABLE "chat_calls" ADD COLUMN     "channel" "Channel" NOT NULL DEFAULT 'API';

-- CreateTable
CREATE TABLE "chat_bindings" (
    "id" UUID NOT NULL,
    "platform" "Channel" NOT NULL,
    "chat_user" TEXT NOT NULL,
    "chat_id" TEXT,
    "chat_label" TEXT NOT NULL,
    "rental_id" UUID NOT NULL,
    "busy_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,
    "open_user" TEXT,
    "open_rental_id" UUID,

    CONSTRAINT "chat_bindings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_deliveries" (
    "platform" "Channel" NOT NULL,
    "key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_deliveries_pkey" PRIMARY KEY ("platform","key")
);

-- CreateTable
CREATE TABLE "slack_installations" (
    "team_id" TEXT NOT NULL,
    "team_name" TEXT NOT NULL,
    "bot_user_id" TEXT NOT NULL,
    "bot_token_cipher" TEXT NOT NULL,
    "installed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "slack_installations_pkey" PRIMARY KEY ("team_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chat_bindings_open_user_key" ON "chat_bindings"("open_user");

-- CreateIndex
CREATE UNIQUE INDEX "chat_bindings_open_rental_id_key" ON "chat_bindings"("open_rental_id");

-- CreateIndex
CREATE INDEX "chat_bindings_rental_id_idx" ON "chat_bindings"("rental_id");

-- CreateIndex
CREATE INDEX "chat_deliveries_created_at_idx" ON "chat_deliveries"("created_at");

-- AddForeignKey
ALTER TABLE "chat_bindings" ADD CONSTRAINT "chat_bindings_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
