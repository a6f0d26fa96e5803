import "server-only";
import { typoBudget, typoDistance } from "@/lib/agents/typo-distance";
import { db } from "@/lib/db";

// The letters and digits a typed word is compared by: "scirbbler," is the word "scirbbler".
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const HAS_LETTER = /\p{L}/u;

/**
 * The words of listings' names and skills that a search word may be a misspelling of, within its
 * typo budget (lib/agents/typo-distance.ts): none for a word under 5 characters or without a
 * letter (a number typed differently is another number).
 *
 * The vocabulary (`marketplace_words`, migration 20261126130000_marketplace_typo_words) holds every
 * such word once, so this reads words, not listings. PostgreSQL's Levenshtein distance
 * (fuzzystrmatch) narrows it: a swap of two letters is two Levenshtein edits, so a word within
 * `budget` typos is within `2 × budget` edits. The exact count, swaps as one typo, is ours.
 */
export async function findTypoWords(typed: string): Promise<string[]> {
  const word = typed.toLowerCase().replace(EDGES, "");
  const budget = typoBudget(word);
  if (budget === 0 || !HAS_LETTER.test(word)) return [];
  const length = [...word].length;
  const near = await db.$queryRaw<{ word: string }[]>`
    SELECT w.word FROM marketplace_words w
    WHERE length(w.word) BETWEEN ${length - budget}::int AND ${length + budget}::int
      AND levenshtein_less_equal(w.word, ${word}::text, ${2 * budget}::int) <= ${2 * budget}::int`;
  return near.map((row) => row.word).filter((candidate) => typoDistance(word, candidate, budget) <= budget);
}
