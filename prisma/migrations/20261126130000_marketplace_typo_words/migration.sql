-- Typos forgiven as Meilisearch and Typesense forgive them (lib/agents/find-typo-words.ts): one in a
-- search word of 5 characters or more, two from 9, a swap of two neighbouring letters counting as
-- one. pg_trgm's word similarity (`<%` at 0.5, which this replaces) forgave a dropped letter in a
-- long word but not a swap ("scirbbler" is 0.43 from "Scribbler"), and a typo in a 4-letter word.
--
-- fuzzystrmatch (trusted since PostgreSQL 13, as pg_trgm; PGlite ships it) gives the Levenshtein
-- distance that narrows the vocabulary before the exact count.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

-- The words of a name and skills a typo may be forgiven in: lower-case, split at anything that is
-- not a letter or a digit, and each skill whole as well ("code-review", as a renter types a tag);
-- only words with a letter and 4 characters or more (the shortest a forgiven typo reaches: a
-- 5-letter word less one letter). STABLE parts (array_to_string) on text[] cannot vary, as in
-- ars_words, so it may say IMMUTABLE, as a stored column needs.
CREATE FUNCTION "ars_typo_words"(text, text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w.word ORDER BY w.word), '{}')
  FROM (
    SELECT regexp_split_to_table(lower($1 || ' ' || "ars_words"($2)), '[^[:alnum:]]+') AS word
    UNION ALL
    SELECT lower(unnest($2))
  ) w
  WHERE length(w.word) >= 4 AND w.word ~ '[[:alpha:]]' $$;

ALTER TABLE "agents" ADD COLUMN "typo_words" TEXT[] GENERATED ALWAYS AS ("ars_typo_words"("name", "skills")) STORED;

-- The listings holding any of a search word's near spellings: `typo_words && ARRAY[…]`.
CREATE INDEX "agents_typo_words_idx" ON "agents" USING gin ("typo_words")
  WHERE "status" = 'available' AND "webhook_url_cipher" IS NOT NULL;

-- `<%` no longer finds listings; relevance still scores the few ranked candidates by
-- word_similarity against name_and_skills, which needs no index.
DROP INDEX "agents_name_and_skills_trgm_idx";

-- Every word any listing's name or skills ever held, once: a search compares a typed word with
-- these words, not with every listing. Words stay when their listing changes or goes (a word no
-- rentable listing holds finds nothing in agents_typo_words_idx), so the trigger only inserts.
CREATE TABLE "marketplace_words" (
  "word" TEXT NOT NULL,
  CONSTRAINT "marketplace_words_pkey" PRIMARY KEY ("word")
);

-- A word's length first: a search reads only the words within its typo budget of that length.
CREATE INDEX "marketplace_words_length_idx" ON "marketplace_words" (length("word"));

INSERT INTO "marketplace_words" ("word")
SELECT DISTINCT unnest("typo_words") FROM "agents";

-- In word order, so concurrent inserts of the same words wait for each other instead of deadlocking.
CREATE FUNCTION "marketplace_add_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "marketplace_words" ("word")
  SELECT t.word FROM unnest(NEW."typo_words") AS t(word) ORDER BY t.word
  ON CONFLICT ("word") DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "agents_add_words" AFTER INSERT OR UPDATE OF "name", "skills" ON "agents"
  FOR EACH ROW EXECUTE FUNCTION "marketplace_add_words"();
