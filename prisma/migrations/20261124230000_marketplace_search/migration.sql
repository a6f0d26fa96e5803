-- Forgiving marketplace search (lib/agents/marketplace-search-terms.ts): trigram similarity from
-- pg_trgm (a trusted extension since PostgreSQL 13: the database's owner may create it), beside
-- the built-in full-text search. Both are computed per rentable listing at query time: no index
-- (an expression index needs immutable functions, and array_to_string is only stable).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
