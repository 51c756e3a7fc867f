import { SimilarityScratch, trigramSequence, type WordCharacters, wordSimilarityOf } from './trigrams.js';

/**
 * Distinct names with the two indexes the search asks of them, as PostgreSQL's trigram GIN
 * indexes answer them: which names a word is similar to (`word <% name`), and which names contain
 * a string (`name ILIKE '%q%'`). Names are only ever added: a record whose name changes points at
 * another entry, and what points at a name is checked by its owner (see DirectoryData).
 */
export class NameIndex {
  /** The distinct names, by key. */
  readonly names: string[] = [];
  private readonly lowered: string[] = [];
  private readonly keys = new Map<string, number>();
  /** Each name's trigram id sequence (word similarity reads it in order). */
  private readonly sequences: Int32Array[] = [];
  /** Each name's distinct trigram ids. */
  private readonly distinct: Int32Array[] = [];
  /** Trigram id → keys of the names that have it (once each). */
  private readonly postings: number[][] = [];
  private readonly trigramIds = new Map<string, number>();
  /** Three characters of a lower-cased name → keys of the names that contain them. */
  private readonly substrings = new Map<string, number[]>();
  private readonly scratch = new SimilarityScratch();
  private inQuery = new Uint8Array(1024);
  private seen = new Uint8Array(1024);

  constructor(private readonly words: WordCharacters) {}

  /** The key of `name`, added when new. */
  add(name: string): number {
    let key = this.keys.get(name);
    if (key !== undefined) return key;
    key = this.names.length;
    this.keys.set(name, key);
    this.names.push(name);
    const lowered = name.toLowerCase();
    this.lowered.push(lowered);
    const sequence = trigramSequence(name, this.words).map((trigram) => this.trigramId(trigram));
    this.sequences.push(Int32Array.from(sequence));
    const distinct = new Set(sequence);
    this.distinct.push(Int32Array.from(distinct));
    for (const id of distinct) (this.postings[id] as number[]).push(key);
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= lowered.length; i++) {
      const part = lowered.slice(i, i + 3);
      if (seen.has(part)) continue;
      seen.add(part);
      const list = this.substrings.get(part);
      if (list) list.push(key);
      else this.substrings.set(part, [key]);
    }
    return key;
  }

  lowerName(key: number): string {
    return this.lowered[key] ?? '';
  }

  private trigramId(trigram: string): number {
    let id = this.trigramIds.get(trigram);
    if (id === undefined) {
      id = this.trigramIds.size;
      this.trigramIds.set(trigram, id);
      this.postings.push([]);
    }
    return id;
  }

  /** A query's trigrams: the ids names have, and how many distinct trigrams it has in all. */
  query(text: string): TrigramQuery {
    const distinct = new Set(trigramSequence(text, this.words));
    const ids: number[] = [];
    for (const trigram of distinct) {
      const id = this.trigramIds.get(trigram);
      if (id !== undefined) ids.push(id);
    }
    return { ids, count: distinct.size };
  }

  /** word_similarity(query, name), as PostgreSQL computes it. */
  similarity(query: TrigramQuery, key: number): number {
    const sequence = this.sequences[key];
    if (!sequence || query.count === 0) return 0;
    return this.withQuery(query, (inQuery) =>
      wordSimilarityOf(inQuery, query.count, sequence, this.trigramIds.size, this.scratch),
    );
  }

  /**
   * Keys of the names whose word similarity to every one of `words` is at least `threshold`
   * (`word <% name` for each), with each name's similarity to the last word. A name sharing
   * `needed` of a word's trigrams has one of its rarest (known - needed + 1): only names that
   * have such a trigram of every word are candidates, and only those are scored, exactly.
   */
  similarToAll(words: readonly string[], threshold: number): Map<number, number> {
    const queries = words.slice(0, 7).map((word) => this.query(word));
    const needs = queries.map((query) => sharedNeeded(query, threshold));
    if (queries.length === 0 || queries.some((query, i) => (needs[i] as number) > query.ids.length))
      return new Map();
    if (this.seen.length < this.names.length)
      this.seen = new Uint8Array(Math.max(this.names.length, this.seen.length * 2));
    const seen = this.seen;
    const touched: number[] = [];
    queries.forEach((query, i) => {
      const bit = 1 << i;
      const rarest = [...query.ids]
        .sort((a, b) => (this.postings[a] as number[]).length - (this.postings[b] as number[]).length)
        .slice(0, query.ids.length - (needs[i] as number) + 1);
      for (const id of rarest) {
        for (const key of this.postings[id] as number[]) {
          const marks = seen[key] as number;
          if (marks === 0) touched.push(key);
          seen[key] = marks | bit;
        }
      }
    });
    const every = (1 << queries.length) - 1;
    let keys = touched.filter((key) => seen[key] === every);
    for (const key of touched) seen[key] = 0;
    let scores = new Map<number, number>();
    for (const query of queries) {
      scores = this.scoresAbove(query, keys, threshold);
      keys = [...scores.keys()];
    }
    return scores;
  }

  /** Those of `keys` whose word similarity to the query is at least `threshold`, with it. */
  private scoresAbove(query: TrigramQuery, keys: readonly number[], threshold: number): Map<number, number> {
    const needed = sharedNeeded(query, threshold);
    const scores = new Map<number, number>();
    this.withQuery(query, (inQuery) => {
      for (const key of keys) {
        // Counting the trigrams shared is cheap; scoring only those sharing enough is exact.
        const distinct = this.distinct[key] as Int32Array;
        let shared = 0;
        for (let i = 0; i < distinct.length; i++) shared += inQuery[distinct[i] as number] as number;
        if (shared < needed) continue;
        const sequence = this.sequences[key] as Int32Array;
        const score = wordSimilarityOf(inQuery, query.count, sequence, this.trigramIds.size, this.scratch);
        if (score >= threshold) scores.set(key, score);
      }
    });
    return scores;
  }

  /** Keys of the names containing `lowered` (a lower-cased query): `name ILIKE '%q%'`. */
  containing(lowered: string): number[] {
    if (lowered.length < 3) {
      const found: number[] = [];
      this.lowered.forEach((name, key) => {
        if (name.includes(lowered)) found.push(key);
      });
      return found;
    }
    // Every three characters of the query are in such a name: start from the rarest.
    let rarest: number[] | undefined;
    for (let i = 0; i + 3 <= lowered.length; i++) {
      const list = this.substrings.get(lowered.slice(i, i + 3));
      if (!list) return [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    return (rarest ?? []).filter((key) => (this.lowered[key] as string).includes(lowered));
  }

  private withQuery<T>(query: TrigramQuery, work: (inQuery: Uint8Array) => T): T {
    if (this.inQuery.length < this.trigramIds.size)
      this.inQuery = new Uint8Array(Math.max(this.trigramIds.size, this.inQuery.length * 2));
    const flags = this.inQuery;
    for (const id of query.ids) flags[id] = 1;
    try {
      return work(flags);
    } finally {
      for (const id of query.ids) flags[id] = 0;
    }
  }
}

export interface TrigramQuery {
  /** Ids of the query's trigrams that some name has. */
  ids: number[];
  /** How many distinct trigrams the query has, including those no name has. */
  count: number;
}

/**
 * The fewest of a query's trigrams a name must share to reach `threshold`: sharing c of n scores
 * at most c / n (an extent has at least as many trigrams as it shares).
 */
function sharedNeeded(query: TrigramQuery, threshold: number): number {
  if (query.count === 0) return Number.POSITIVE_INFINITY;
  let needed = 1;
  while (needed <= query.count && Math.fround(needed / query.count) < threshold) needed++;
  return needed;
}
