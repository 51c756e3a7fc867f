import { SimilarityScratch, trigramSequence, type WordCharacters, wordSimilarityOf } from './trigrams.js';

/**
 * Distinct names with the two indexes the search asks of them, as PostgreSQL's trigram GIN
 * indexes answer them: which names a word is similar to (`word <% name`), and which names contain
 * a string (`name ILIKE '%q%'`). Names are only ever added: a record whose name changes points at
 * another entry, and what points at a name is checked by its owner (see SearchDirectory).
 */
export class NameIndex {
  /** The distinct names, by key. */
  readonly names: string[] = [];
  private readonly lowered: string[] = [];
  private readonly keys = new Map<string, number>();
  /** Each name's trigram id sequence (word similarity reads it in order). */
  private readonly sequences: Int32Array[] = [];
  /** Trigram id → keys of the names that have it (once each). */
  private readonly postings: number[][] = [];
  private readonly trigramIds = new Map<string, number>();
  /** Three characters of a lower-cased name → keys of the names that contain them. */
  private readonly substrings = new Map<string, number[]>();
  private readonly scratch = new SimilarityScratch();
  private inQuery = new Uint8Array(1024);
  private counts = new Uint16Array(1024);

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
    for (const id of new Set(sequence)) (this.postings[id] as number[]).push(key);
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

  /** Keys of the names whose word similarity to `word` is at least `threshold` (`word <% name`). */
  similarTo(word: string, threshold: number): number[] {
    const query = this.query(word);
    if (query.count === 0) return [];
    // A name sharing c of the word's n trigrams scores at most c / n: fewer can never reach it.
    let needed = 1;
    while (needed <= query.count && Math.fround(needed / query.count) < threshold) needed++;
    if (needed > query.ids.length) return [];
    if (this.counts.length < this.names.length)
      this.counts = new Uint16Array(Math.max(this.names.length, this.counts.length * 2));
    const counts = this.counts;
    const touched: number[] = [];
    for (const id of query.ids) {
      for (const key of this.postings[id] as number[]) {
        if (counts[key] === 0) touched.push(key);
        counts[key] = (counts[key] as number) + 1;
      }
    }
    const found: number[] = [];
    this.withQuery(query, (inQuery) => {
      for (const key of touched) {
        if ((counts[key] as number) >= needed) {
          const sequence = this.sequences[key] as Int32Array;
          const score = wordSimilarityOf(inQuery, query.count, sequence, this.trigramIds.size, this.scratch);
          if (score >= threshold) found.push(key);
        }
        counts[key] = 0;
      }
    });
    return found;
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

  private withQuery<T>(query: TrigramQuery, work: (inQuery: (id: number) => boolean) => T): T {
    if (this.inQuery.length < this.trigramIds.size)
      this.inQuery = new Uint8Array(Math.max(this.trigramIds.size, this.inQuery.length * 2));
    const flags = this.inQuery;
    for (const id of query.ids) flags[id] = 1;
    try {
      return work((id) => flags[id] === 1);
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
