-- Marketplace search through indexes (lib/agents/marketplace-search-terms.ts) instead of
-- computing every rentable listing's text at query time. Three stored columns the database keeps:
--   search_text     name, description and skills: substring search (ILIKE) by trigram index;
--   name_and_skills the words a typo is looked for in (word similarity, `<%`) by trigram index;
--   search_document the full-text document (stems and prefixes) by GIN index.
-- array_to_string is only STABLE (for arrays of types whose output may vary); for text[] it
-- cannot vary, so this wrapper may say IMMUTABLE, as a stored column needs.
CREATE FUNCTION "ars_words"(text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string($1, ' ') $$;

ALTER TABLE "agents"
  ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS ("name" || ' ' || "description" || ' ' || "ars_words"("skills")) STORED,
  ADD COLUMN "name_and_skills" TEXT GENERATED ALWAYS AS ("name" || ' ' || "ars_words"("skills")) STORED,
  ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS
    (to_tsvector('english'::regconfig, "name" || ' ' || "description" || ' ' || "ars_words"("skills"))) STORED;

CREATE INDEX "agents_search_text_trgm_idx" ON "agents" USING gin ("search_text" gin_trgm_ops)
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
CREATE INDEX "agents_name_and_skills_trgm_idx" ON "agents" USING gin ("name_and_skills" gin_trgm_ops)
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;
CREATE INDEX "agents_search_document_idx" ON "agents" USING gin ("search_document")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;

-- `word <% text` holds when word_similarity(word, text) reaches pg_trgm.word_similarity_threshold:
-- the app sets it to the search's typo threshold on every connection it opens (lib/db.ts).
