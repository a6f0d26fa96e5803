-- CreateEnum
CREATE TYPE "AgentStatus" AS ENUM ('offline', 'available');

-- CreateEnum
CREATE TYPE "RentalStatus" AS ENUM ('pending', 'active', 'completed', 'cancelled', 'disputed');

-- CreateEnum
CREATE TYPE "DurationType" AS ENUM ('hour', 'day', 'month');

-- CreateEnum
CREATE TYPE "Channel" AS ENUM ('Telegram', 'Discord', 'Slack', 'API');

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "email" TEXT,
    "wallet_address" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agents" (
    "id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "skills" TEXT[],
    "channels" "Channel"[],
    "price_per_hour" BIGINT,
    "price_per_day" BIGINT,
    "price_per_month" BIGINT,
    "status" "AgentStatus" NOT NULL DEFAULT 'offline',
    "webhook_url_cipher" TEXT,
    "webhook_token_cipher" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rentals" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "renter_id" UUID,
    "status" "RentalStatus" NOT NULL,
    "duration_type" "DurationType" NOT NULL,
    "channel" "Channel" NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "price_micro_usdc" BIGINT NOT NULL,
    "fee_micro_usdc" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rentals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_calls" (
    "id" BIGSERIAL NOT NULL,
    "rental_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "status_code" INTEGER NOT NULL,
    "webhook_status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "request_bytes" INTEGER NOT NULL,
    "response_bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_wallet_address_key" ON "accounts"("wallet_address");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE INDEX "agents_owner_id_idx" ON "agents"("owner_id");

-- CreateIndex
CREATE INDEX "agents_status_idx" ON "agents"("status");

-- CreateIndex
CREATE INDEX "rentals_agent_id_idx" ON "rentals"("agent_id");

-- CreateIndex
CREATE INDEX "rentals_renter_id_idx" ON "rentals"("renter_id");

-- CreateIndex
CREATE INDEX "rentals_status_ends_at_idx" ON "rentals"("status", "ends_at");

-- CreateIndex
CREATE INDEX "chat_calls_agent_id_created_at_idx" ON "chat_calls"("agent_id", "created_at");

-- CreateIndex
CREATE INDEX "chat_calls_rental_id_idx" ON "chat_calls"("rental_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agents" ADD CONSTRAINT "agents_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_renter_id_fkey" FOREIGN KEY ("renter_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_calls" ADD CONSTRAINT "chat_calls_rental_id_fkey" FOREIGN KEY ("rental_id") REFERENCES "rentals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_calls" ADD CONSTRAINT "chat_calls_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
