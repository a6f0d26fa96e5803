import "server-only";
import { findTypoWords } from "@/lib/agents/find-typo-words";
import { Prisma } from "@/lib/generated/prisma/client";

// How the marketplace's search words find listings (PostgreSQL only, no search service):
//   - a substring of the name, the description or a skill ("ech", "review");
//   - a word of the same stem, or one starting with it, by full-text search ("chat" finds
//     "chatting", "summar" finds "summarization");
//   - a word of the name or a skill within the search word's typos: one from 5 characters, two
//     from 9, a swap of two letters counting as one ("echoo" finds "Echo", "scirbbler" finds
//     "Scribbler"; lib/agents/find-typo-words.ts).
// Every word must be found, by any of the three. The score ranks name hits over skill hits over
// description hits, and close spellings by how close they are.

const MAX_TERMS = 8;

/** A search word and the ways it is looked for; `typoWords`: the listings' words it may be a misspelling of. */
export type SearchTerm = { like: string; prefix: string | null; word: string; typoWords: string[] };

export async function searchTerms(q: string | undefined): Promise<SearchTerm[]> {
  if (!q) return [];
  const words = [...new Set(q.toLowerCase().split(" ").filter(Boolean))].slice(0, MAX_TERMS);
  return Promise.all(
    words.map(async (word) => {
      // tsquery syntax takes letters and digits only; what is left becomes a prefix query.
      const letters = word.replace(/[^\p{L}\p{N}]/gu, "");
      return { like: `%${escapeLike(word)}%`, prefix: letters ? `${letters}:*` : null, word, typoWords: await findTypoWords(word) };
    }),
  );
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// Stored columns with their indexes (migrations 20261125170000_marketplace_search_indexes and
// 20261126130000_marketplace_typo_words).
const DOCUMENT = Prisma.sql`a.search_document`;
const NAME_AND_SKILLS = Prisma.sql`a.name_and_skills`;

const nameHas = (t: SearchTerm) => Prisma.sql`a.name ILIKE ${t.like}`;
const descriptionHas = (t: SearchTerm) => Prisma.sql`a.description ILIKE ${t.like}`;
// The skills joined by spaces (a query word holds none, so it cannot match across two of them).
const skillHas = (t: SearchTerm) => Prisma.sql`ars_words(a.skills) ILIKE ${t.like}`;
const stemHas = (t: SearchTerm) => (t.prefix ? Prisma.sql`${DOCUMENT} @@ to_tsquery('english', ${t.prefix})` : Prisma.sql`FALSE`);
// A word of the name or skills within the word's typos: the GIN index on typo_words answers it.
const spelledLike = (t: SearchTerm) => (t.typoWords.length > 0 ? Prisma.sql`a.typo_words && ${t.typoWords}::text[]` : Prisma.sql`FALSE`);
const anyTextHas = (t: SearchTerm) => Prisma.sql`a.search_text ILIKE ${t.like}`;

/** The listing has the word, by any of the three ways. */
export function termMatches(t: SearchTerm): Prisma.Sql {
  // One ILIKE on the stored name, description and skills: a substring of any of them. (It could
  // also match across the space joining two of them; a query word holds no space.) Cheapest
  // first, as PostgreSQL checks them in this order on every row the indexes offer: the stored
  // document's stems, the substring, then the near spellings.
  return Prisma.sql`(${stemHas(t)} OR ${anyTextHas(t)} OR ${spelledLike(t)})`;
}

/** Higher is better: a name starting with the whole query first, then per word. */
export function relevanceScore(q: string, terms: SearchTerm[]): Prisma.Sql {
  const perTerm = terms.map(
    (t) => Prisma.sql`(CASE WHEN ${nameHas(t)} THEN 4 ELSE 0 END
      + CASE WHEN ${skillHas(t)} THEN 2 ELSE 0 END
      + CASE WHEN ${descriptionHas(t)} OR ${stemHas(t)} THEN 1 ELSE 0 END
      + 3 * word_similarity(${t.word}, ${NAME_AND_SKILLS}))`,
  );
  return Prisma.sql`(CASE WHEN a.name ILIKE ${`${escapeLike(q)}%`} THEN 8 ELSE 0 END + ${Prisma.join(perTerm, " + ")})`;
}

/** The listing's name has every word (relevance's best candidates; a trigram index answers it). */
export function nameHasEvery(terms: SearchTerm[]): Prisma.Sql {
  return Prisma.join(terms.map(nameHas), " AND ");
}
