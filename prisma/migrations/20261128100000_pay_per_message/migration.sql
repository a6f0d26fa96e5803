-- Pay per answer (issue 27): a listing may sell single answers (x402), each paid by the caller's
-- EIP-3009 authorization and settled through the escrow only after the owner's webhook answered.

-- Micro-USDC per answer; null: not sold per message. At least 0.001 USDC.
ALTER TABLE "agents" ADD COLUMN "price_per_message" BIGINT;
ALTER TABLE "agents" ADD CONSTRAINT "agents_price_per_message_min" CHECK ("price_per_message" IS NULL OR "price_per_message" >= 1000);

-- One paid answer: the authorization's payer and nonce are used at most once (the unique key is
-- taken before the owner is called, so a replay, a race or a retry after a crash finds it).
CREATE TABLE "message_payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "agent_id" UUID NOT NULL,
    "payer" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "payout_address" TEXT NOT NULL,
    "price_micro_usdc" BIGINT NOT NULL,
    "fee_micro_usdc" BIGINT NOT NULL,
    "valid_after" BIGINT NOT NULL,
    "valid_before" BIGINT NOT NULL,
    "signature" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "chain_transaction_id" UUID,
    "tx_hash" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "message_payments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "message_payments_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "message_payments_chain_transaction_id_fkey" FOREIGN KEY ("chain_transaction_id") REFERENCES "chain_transactions"("id") ON DELETE SET NULL ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "message_payments_payer_nonce_key" ON "message_payments"("payer", "nonce");
CREATE INDEX "message_payments_agent_id_created_at_idx" ON "message_payments"("agent_id", "created_at");
CREATE INDEX "message_payments_payout_address_settled_at_idx" ON "message_payments"("payout_address", "settled_at");

-- A paid answer's call is recorded like a rental's: a call belongs to a rental or to a payment.
ALTER TABLE "chat_calls" ALTER COLUMN "rental_id" DROP NOT NULL;
ALTER TABLE "chat_calls" ADD COLUMN "message_payment_id" UUID;
ALTER TABLE "chat_calls" ADD CONSTRAINT "chat_calls_message_payment_id_fkey" FOREIGN KEY ("message_payment_id") REFERENCES "message_payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "chat_calls" ADD CONSTRAINT "chat_calls_rental_or_payment" CHECK ("rental_id" IS NOT NULL OR "message_payment_id" IS NOT NULL);
