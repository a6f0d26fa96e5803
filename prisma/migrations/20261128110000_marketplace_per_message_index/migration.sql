-- The marketplace's "sold per message" filter (issue 27; lib/agents/search-marketplace.ts): the
-- rentable listings that also sell single answers, by price per answer. Without it a page of them
-- walks a sort index past every listing that does not, and their count reads every rentable
-- listing; with it both read only these rows (and `maxMessagePrice` is a range on its first key).
CREATE INDEX "agents_marketplace_per_message_idx" ON "agents" ("price_per_message", "created_at" DESC, "id")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL AND "price_per_message" IS NOT NULL;
