import type { SearchResult } from '@wellrest/core';
import { editDistance, typosAllowed } from '../../packages/api/dist/modules/search/words.js';
import { type DataSet, seededRandom } from './generate.js';

// Recall and precision of search on a labelled set of misspellings: real patients' full names
// with slips in the surname (one typo from 5 letters, two from 9 — of the word as typed, as the
// search promises),
// each kind of slip equally often. Recall: the share of queries whose top results include a
// patient of the intended name. Precision: the share of returned patients that are acceptable
// answers — every query word within its typo allowance of a word of the patient's name (its
// beginning, while typing) — and, stricter, the share that carry the intended name.

export type Slip = 'insertion' | 'deletion' | 'substitution' | 'transposition';
const SLIPS: readonly Slip[] = ['insertion', 'deletion', 'substitution', 'transposition'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface Misspelling {
  query: string;
  intended: string;
  slip: Slip;
  typos: number;
}

/** One slip at a position past the first letter (people rarely mistype the first). */
function slip(word: string, kind: Slip, random: () => number): string {
  const at = 1 + Math.floor(random() * (word.length - 2));
  const letter = LETTERS[Math.floor(random() * LETTERS.length)] as string;
  switch (kind) {
    case 'insertion':
      return word.slice(0, at) + letter + word.slice(at);
    case 'deletion':
      return word.slice(0, at) + word.slice(at + 1);
    case 'substitution': {
      const other = letter === word[at]?.toLowerCase() ? LETTERS[(LETTERS.indexOf(letter) + 1) % 26] : letter;
      return word.slice(0, at) + other + word.slice(at + 1);
    }
    default:
      return word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
  }
}

/** `count` misspelt full names of patients of the data set, drawn with a fixed seed. */
export function labelledMisspellings(data: DataSet, count = 400, seed = 7): Misspelling[] {
  const random = seededRandom(seed);
  const out: Misspelling[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const patient = data.patients[Math.floor(random() * data.patients.length)];
    const words = patient?.name.split(' ') ?? [];
    const surname = words.at(-1) ?? '';
    const typos = typosAllowed(surname.length);
    if (!patient || words.length < 2 || typos === 0) continue;
    const kind = SLIPS[out.length % SLIPS.length] as Slip;
    let misspelt = surname;
    for (let i = 0; i < typos; i++) misspelt = slip(misspelt, kind, random);
    // Within the promise as the search reads it: the allowance of the word as typed.
    if (misspelt.toLowerCase() === surname.toLowerCase() || typosAllowed(misspelt.length) < typos) continue;
    out.push({
      query: [...words.slice(0, -1), misspelt].join(' '),
      intended: patient.name,
      slip: kind,
      typos,
    });
  }
  return out;
}

/** Whether a returned name is an acceptable answer: every query word near a word of it. */
export function acceptable(query: string, name: string): boolean {
  const words = name.toLowerCase().split(/\s+/);
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((q) => {
      const allowed = typosAllowed(q.length);
      return words.some(
        (w) =>
          editDistance(q, w, allowed) <= allowed || editDistance(q, w.slice(0, q.length), allowed) <= allowed,
      );
    });
}

export interface SearchQuality {
  queries: number;
  limit: number;
  recall: number;
  precision: number;
  exactPrecision: number;
  bySlip: Record<Slip, { queries: number; recall: number }>;
  p50Ms: number;
  p99Ms: number;
}

/** Sends each misspelling to `POST /api/search` one after another and scores the answers. */
export async function measureSearchQuality(
  url: string,
  cookie: string,
  misspellings: readonly Misspelling[],
  limit = 10,
): Promise<SearchQuality> {
  let found = 0;
  let returned = 0;
  let good = 0;
  let exact = 0;
  const times: number[] = [];
  const bySlip = Object.fromEntries(
    SLIPS.map((s) => [s, { queries: 0, recall: 0 }]),
  ) as SearchQuality['bySlip'];
  for (const m of misspellings) {
    const started = performance.now();
    const response = await fetch(`${url}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query: m.query, limit }),
    });
    const results = (await response.json()) as SearchResult[];
    times.push(performance.now() - started);
    const patients = Array.isArray(results) ? results.filter((r) => r.type === 'patient') : [];
    const hit = patients.some((r) => r.title === m.intended);
    if (hit) found++;
    bySlip[m.slip].queries++;
    if (hit) bySlip[m.slip].recall++;
    returned += patients.length;
    good += patients.filter((r) => acceptable(m.query, r.title)).length;
    exact += patients.filter((r) => r.title === m.intended).length;
  }
  for (const s of SLIPS) bySlip[s].recall = bySlip[s].queries ? bySlip[s].recall / bySlip[s].queries : 0;
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 10) / 10;
  return {
    queries: misspellings.length,
    limit,
    recall: misspellings.length ? found / misspellings.length : 0,
    precision: returned ? good / returned : 1,
    exactPrecision: returned ? exact / returned : 1,
    bySlip,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}
