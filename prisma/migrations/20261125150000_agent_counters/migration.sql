-- Counters the marketplace sorts by, kept by the database itself: every rental and rating
-- written by any code path (checkout, CLI, event reader, deletes) moves them in the same
-- transaction, so they are never stale and no request counts rows to order a page.
--   rental_count: the agent's rentals that are not awaiting payment (what loadListingStats shows);
--   rating_count, rating_sum: its ratings (the average is rating_sum / rating_count).
ALTER TABLE "agents"
  ADD COLUMN "rental_count" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "rating_count" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "rating_sum" INTEGER NOT NULL DEFAULT 0;

UPDATE "agents" a SET
  "rental_count" = (SELECT count(*) FROM "rentals" r WHERE r."agent_id" = a."id" AND r."status" <> 'pending'),
  "rating_count" = (SELECT count(*) FROM "ratings" r WHERE r."agent_id" = a."id"),
  "rating_sum" = COALESCE((SELECT sum(r."score") FROM "ratings" r WHERE r."agent_id" = a."id"), 0);

CREATE FUNCTION "agents_count_rentals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" <> 'pending' THEN
    UPDATE "agents" SET "rental_count" = "rental_count" - 1 WHERE "id" = OLD."agent_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" <> 'pending' THEN
    UPDATE "agents" SET "rental_count" = "rental_count" + 1 WHERE "id" = NEW."agent_id";
  END IF;
  RETURN NULL;
END $$;

-- Only when the counted fact changes: a status moving between pending and anything else, or the
-- agent. Other updates (a release, a retry time) do not touch the agent's row.
CREATE TRIGGER "rentals_count_insert_delete" AFTER INSERT OR DELETE ON "rentals"
  FOR EACH ROW EXECUTE FUNCTION "agents_count_rentals"();
CREATE TRIGGER "rentals_count_update" AFTER UPDATE OF "status", "agent_id" ON "rentals"
  FOR EACH ROW WHEN ((OLD."status" = 'pending') IS DISTINCT FROM (NEW."status" = 'pending') OR OLD."agent_id" IS DISTINCT FROM NEW."agent_id")
  EXECUTE FUNCTION "agents_count_rentals"();

CREATE FUNCTION "agents_count_ratings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "agents" SET "rating_count" = "rating_count" - 1, "rating_sum" = "rating_sum" - OLD."score" WHERE "id" = OLD."agent_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE "agents" SET "rating_count" = "rating_count" + 1, "rating_sum" = "rating_sum" + NEW."score" WHERE "id" = NEW."agent_id";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ratings_count" AFTER INSERT OR DELETE OR UPDATE OF "score", "agent_id" ON "ratings"
  FOR EACH ROW EXECUTE FUNCTION "agents_count_ratings"();

-- What the renter surface, the sweeps and the owner's figures look rentals up by.
CREATE INDEX "rentals_agent_id_status_idx" ON "rentals"("agent_id", "status");
DROP INDEX IF EXISTS "rentals_agent_id_idx";
-- The health-check sweep claims the agents checked longest ago.
CREATE INDEX "agents_last_health_check_at_idx" ON "agents"("last_health_check_at" NULLS FIRST);
