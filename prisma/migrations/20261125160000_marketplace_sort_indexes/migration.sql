-- One partial index per marketplace sort, over the rentable agents only (available, webhook
-- connected: the listing's WHERE), in the sort's exact order (lib/agents/search-marketplace.ts),
-- so an unfiltered page is an index scan that stops after 24 rows instead of a sort of them all.
CREATE INDEX "agents_marketplace_popular_idx" ON "agents"
  ("rental_count" DESC, (("rating_sum"::float8 / NULLIF("rating_count", 0))) DESC NULLS LAST, "rating_count" DESC, "created_at" DESC, "id")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
CREATE INDEX "agents_marketplace_rating_idx" ON "agents"
  ((("rating_sum"::float8 / NULLIF("rating_count", 0))) DESC NULLS LAST, "rating_count" DESC, "rental_count" DESC, "id")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
CREATE INDEX "agents_marketplace_newest_idx" ON "agents" ("created_at" DESC, "id")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
-- Cheapest first, and (scanned backwards) dearest first.
CREATE INDEX "agents_marketplace_price_asc_idx" ON "agents"
  ((LEAST("price_per_hour", "price_per_day", "price_per_month")) ASC NULLS LAST, "created_at" DESC, "id")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
CREATE INDEX "agents_marketplace_price_desc_idx" ON "agents"
  ((LEAST("price_per_hour", "price_per_day", "price_per_month")) ASC NULLS FIRST, "created_at" ASC, "id" DESC)
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
