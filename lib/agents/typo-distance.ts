// How many typos a search word may hold, and how many it holds, as Meilisearch and Typesense
// count them: a letter inserted, deleted or replaced, or two neighbouring letters swapped, is one
// typo each (the optimal string alignment distance: Levenshtein plus adjacent transpositions).
// Pure, so the marketplace's search and its tests share one definition.

/** From this many characters a word may hold one typo, and from TWO_TYPOS two (Meilisearch's defaults). */
export const ONE_TYPO = 5;
export const TWO_TYPOS = 9;

/** The typos a search word of this spelling may hold: 0 below 5 characters, 1 below 9, else 2. */
export function typoBudget(word: string): 0 | 1 | 2 {
  const length = [...word].length;
  return length >= TWO_TYPOS ? 2 : length >= ONE_TYPO ? 1 : 0;
}

/**
 * The typos between two words (characters, not UTF-16 units), or `max + 1` as soon as there are
 * more than `max`: the search only asks whether a word is within its budget.
 */
export function typoDistance(a: string, b: string, max: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  // Three rows of the dynamic programme: the one before the previous is what a swap looks back to.
  let before = new Array<number>(t.length + 1).fill(0);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = new Array<number>(t.length + 1);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    // Every later row is at least this row's smallest value.
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length], max + 1);
}
