-- A broad search ranks a bounded set of candidates instead of scoring every match
-- (lib/agents/rank-search-page.ts): the most chosen matches, and the most chosen whose name has
-- every word. This trigram index answers the name's condition (`name ILIKE`) of the second list.
CREATE INDEX "agents_name_trgm_idx" ON "agents" USING gin ("name" gin_trgm_ops)
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;

-- The marketplace's facet counts over the rentable agents (available, webhook connected), kept by
-- the database in the same transaction as every change of an agent, so a page without a search
-- or a channel, duration or price filter reads its facets here instead of counting listings
-- (lib/agents/count-marketplace-facets.ts). One row per category and skill ("" for the category's
-- listings): the listings of that category with that skill. Rows at 0 stay (and are not shown).
CREATE TABLE "marketplace_facet_counts" (
  "category" TEXT NOT NULL,
  "skill" TEXT NOT NULL,
  "listings" INTEGER NOT NULL,
  CONSTRAINT "marketplace_facet_counts_pkey" PRIMARY KEY ("category", "skill")
);

INSERT INTO "marketplace_facet_counts" ("category", "skill", "listings")
SELECT a."category", s."skill", count(*)::int
FROM "agents" a CROSS JOIN LATERAL (SELECT DISTINCT unnest(array_prepend('', a."skills")) AS "skill") s
WHERE a."status" = 'available' AND a."webhook_url_cipher" IS NOT NULL
GROUP BY a."category", s."skill";

-- The old row's counts out, the new row's in, as one upsert in key order (concurrent changes lock
-- the counts' rows in the same order). OLD is NULL on INSERT and NEW on DELETE.
CREATE FUNCTION "marketplace_count_facets"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "marketplace_facet_counts" AS f ("category", "skill", "listings")
  SELECT c."category", c."skill", sum(c."delta")::int
  FROM (
    SELECT OLD."category" AS "category", s."skill", -1 AS "delta"
    FROM (SELECT DISTINCT unnest(array_prepend('', OLD."skills")) AS "skill") s
    WHERE TG_OP <> 'INSERT' AND OLD."status" = 'available' AND OLD."webhook_url_cipher" IS NOT NULL
    UNION ALL
    SELECT NEW."category", s."skill", 1
    FROM (SELECT DISTINCT unnest(array_prepend('', NEW."skills")) AS "skill") s
    WHERE TG_OP <> 'DELETE' AND NEW."status" = 'available' AND NEW."webhook_url_cipher" IS NOT NULL
  ) c
  GROUP BY c."category", c."skill"
  HAVING sum(c."delta") <> 0
  ORDER BY c."category", c."skill"
  ON CONFLICT ("category", "skill") DO UPDATE SET "listings" = f."listings" + EXCLUDED."listings";
  RETURN NULL;
END $$;

-- Only when a counted fact changes: whether the agent is rentable, its category or its skills.
-- Other updates (its counters, a health check's time, a new webhook secret) do not fire.
CREATE TRIGGER "agents_count_facets_insert_delete" AFTER INSERT OR DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION "marketplace_count_facets"();
CREATE TRIGGER "agents_count_facets_update" AFTER UPDATE OF "status", "webhook_url_cipher", "category", "skills" ON "agents"
  FOR EACH ROW WHEN (
    (OLD."status" = 'available' AND OLD."webhook_url_cipher" IS NOT NULL) IS DISTINCT FROM (NEW."status" = 'available' AND NEW."webhook_url_cipher" IS NOT NULL)
    OR OLD."category" IS DISTINCT FROM NEW."category"
    OR OLD."skills" IS DISTINCT FROM NEW."skills")
  EXECUTE FUNCTION "marketplace_count_facets"();
