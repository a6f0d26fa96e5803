-- WhatsApp, the first bot on Vercel's Chat SDK (issue 30, docs/channels.md). Rentals bought for it,
-- its chat users and its messages are recorded with channel 'WhatsApp' (listings, checkout, the
-- owner's payload, stats). PostgreSQL accepts ADD VALUE inside a transaction as long as nothing in
-- the same transaction uses the new value, and nothing here does.
ALTER TYPE "Channel" ADD VALUE 'WhatsApp';

-- The Chat SDK's state (@chat-adapter/state-pg, autoCreateSchema off: the schema is ours to
-- migrate). These are the adapter's own tables, columns and indexes, as its
-- postgresSchemaStatements list them for migration-owned deployments. Rows only: no advisory
-- locks or session state, so they work through the transaction pooler.
CREATE TABLE "chat_state_subscriptions" (
    "key_prefix" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY ("key_prefix", "thread_id")
);

CREATE TABLE "chat_state_locks" (
    "key_prefix" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ NOT NULL,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY ("key_prefix", "thread_id")
);
CREATE INDEX "chat_state_locks_expires_idx" ON "chat_state_locks" ("expires_at");

CREATE TABLE "chat_state_cache" (
    "key_prefix" TEXT NOT NULL,
    "cache_key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY ("key_prefix", "cache_key")
);
CREATE INDEX "chat_state_cache_expires_idx" ON "chat_state_cache" ("expires_at");

CREATE TABLE "chat_state_lists" (
    "key_prefix" TEXT NOT NULL,
    "list_key" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ,
    PRIMARY KEY ("key_prefix", "list_key", "seq")
);
CREATE INDEX "chat_state_lists_expires_idx" ON "chat_state_lists" ("expires_at");

CREATE TABLE "chat_state_queues" (
    "key_prefix" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "value" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ NOT NULL,
    PRIMARY KEY ("key_prefix", "thread_id", "seq")
);
CREATE INDEX "chat_state_queues_expires_idx" ON "chat_state_queues" ("expires_at");
