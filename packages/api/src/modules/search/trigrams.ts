// pg_trgm's word similarity, computed in the API process so the search directory (directory.ts)
// answers the same matches PostgreSQL's `<%` operator and `word_similarity()` give, without a
// round trip. Semantics as pg_trgm documents and implements them:
// - a text is split into words, maximal runs of word characters (letters and digits; which
//   letters count follows the database's character classification, see WordCharacters);
// - each word is lower-cased and padded with two spaces before and one after, and every run of
//   three characters of the padded word is a trigram;
// - word_similarity(q, text) is the greatest similarity between the set of q's trigrams and a
//   contiguous extent of the text's trigram sequence, where similarity is
//   shared / (|q's set| + |extent's set| - shared), as pg_trgm computes it: a single left-to-right
//   pass that tries to narrow each extent from its start, in single precision.

/** Which characters make words: ASCII letters and digits only, or every Unicode letter and digit. */
export type WordCharacters = 'ascii' | 'unicode';

const WORD_RUNS: Record<WordCharacters, RegExp> = {
  ascii: /[A-Za-z0-9]+/g,
  unicode: /[\p{L}\p{N}]+/gu,
};

/** The trigram sequence of `text`, word by word, in order (duplicates kept). */
export function trigramSequence(text: string, words: WordCharacters): string[] {
  const trigrams: string[] = [];
  for (const match of text.matchAll(WORD_RUNS[words])) {
    const chars = Array.from(`  ${match[0].toLowerCase()} `);
    for (let i = 0; i + 2 < chars.length; i++) trigrams.push(`${chars[i]}${chars[i + 1]}${chars[i + 2]}`);
  }
  return trigrams;
}

/** float4 division, as pg_trgm computes similarities. */
function similarity(shared: number, queryTrigrams: number, extentTrigrams: number): number {
  return Math.fround(shared / (queryTrigrams + extentTrigrams - shared));
}

/**
 * Scratch space for `wordSimilarityOf`: the last position of each trigram id in the extent, kept
 * at -1 between calls (each call restores the entries it touched).
 */
export class SimilarityScratch {
  private lastPosition = new Int32Array(1024).fill(-1);

  positions(size: number): Int32Array {
    if (this.lastPosition.length < size) {
      const grown = new Int32Array(Math.max(size, this.lastPosition.length * 2)).fill(-1);
      this.lastPosition = grown;
    }
    return this.lastPosition;
  }
}

/**
 * word_similarity of a query whose trigram ids are flagged 1 in `inQuery` (`queryCount` of them,
 * counting those no text has) against a text given as its trigram id sequence.
 */
export function wordSimilarityOf(
  inQuery: Uint8Array,
  queryCount: number,
  text: ArrayLike<number>,
  idSpace: number,
  scratch: SimilarityScratch,
): number {
  const lastPosition = scratch.positions(idSpace);
  let best = 0;
  let lower = -1;
  let extentTrigrams = 0;
  let shared = 0;
  for (let i = 0; i < text.length; i++) {
    const id = text[i] as number;
    const found = inQuery[id] === 1;
    // Trigrams are tracked from the first one the query has; before it, only the query's own.
    if (lower >= 0 || found) {
      if ((lastPosition[id] as number) < 0) {
        extentTrigrams++;
        if (found) shared++;
      }
      lastPosition[id] = i;
    }
    if (!found) continue;
    // Position i ends an extent: score it, then try each later start for a better score.
    if (lower === -1) {
      lower = i;
      extentTrigrams = 1;
    }
    let current = similarity(shared, queryCount, extentTrigrams);
    let tryShared = shared;
    let tryTrigrams = extentTrigrams;
    const previousLower = lower;
    for (let start = lower; start <= i; start++) {
      const candidate = similarity(tryShared, queryCount, tryTrigrams);
      if (candidate > current) {
        current = candidate;
        extentTrigrams = tryTrigrams;
        lower = start;
        shared = tryShared;
      }
      const startId = text[start] as number;
      if (lastPosition[startId] === start) {
        tryTrigrams--;
        if (inQuery[startId] === 1) tryShared--;
      }
    }
    if (current > best) best = current;
    // Trigrams now before the extent's start leave it.
    for (let start = previousLower; start < lower; start++) {
      const startId = text[start] as number;
      if (lastPosition[startId] === start) lastPosition[startId] = -1;
    }
  }
  for (let i = 0; i < text.length; i++) lastPosition[text[i] as number] = -1;
  return best;
}

/** word_similarity(query, text) for two strings, as PostgreSQL computes it. */
export function wordSimilarity(query: string, text: string, words: WordCharacters = 'ascii'): number {
  const ids = new Map<string, number>();
  const idOf = (trigram: string) => {
    let id = ids.get(trigram);
    if (id === undefined) {
      id = ids.size;
      ids.set(trigram, id);
    }
    return id;
  };
  const querySet = new Set(trigramSequence(query, words).map(idOf));
  const sequence = trigramSequence(text, words).map(idOf);
  const inQuery = new Uint8Array(ids.size);
  for (const id of querySet) inQuery[id] = 1;
  return wordSimilarityOf(inQuery, querySet.size, sequence, ids.size, new SimilarityScratch());
}
