import type { SearchResult } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPatient } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { COSTS } from './words.js';

// The typo rules of the global search, against the real API. Per word of the query: exact, or
// the beginning of a longer word while typing, or from 5 letters one typo (insertion, deletion,
// substitution, transposition of neighbours), from 9 letters two; every word must match.
//
// Ranking: each query word costs its best match — exact 0, beginning 1, one typo 2 (3 in a
// beginning), two typos 4 (5 in a beginning) — and a record the sum over the words; cheaper
// first, then the most recently registered patient first (PATIENTS are registered in order).

const PATIENTS = [
  { name: 'Tessa Testwell', email: 'tessa.testwell@example.test', phone: '555-014-2200' },
  { name: 'Edith Exampleby', email: 'e.exampleby@example.test', phone: '555-014-2201' },
  { name: 'Olive Oakley', email: 'olive.oakley@example.test', phone: '555-014-2202' },
  { name: 'Mark Mockley', email: 'mark.mockley@example.test', phone: '555-014-2203' },
  { name: 'Greta Gray', email: 'greta.gray@example.test', phone: '555-014-2204' },
  { name: 'Quentin Kingsridge', email: 'qk@kingsridge.test', phone: '555-014-2205' },
  { name: 'Avery Smith', email: 'avery.smith@example.test', phone: '555-014-2206' },
  { name: 'Blake Smith', email: 'blake.s@example.test', phone: '555-014-2207' },
  { name: 'Sam Smithson', email: 'sam.smithson@example.test', phone: '555-014-2208' },
  { name: 'Ann Smyth', email: 'ann.smyth@example.test', phone: '555-014-2209' },
  { name: 'Drew Hall', email: 'drew.hall@example.test', phone: '555-014-2210' },
];

/** Query → the patients found, in order. */
const CASES: [string, string, string[]][] = [
  ['exact', 'Testwell', ['Tessa Testwell']],
  ['transposition of neighbours', 'Tsetwell', ['Tessa Testwell']],
  ['transposition, another word', 'Exampelby', ['Edith Exampleby']],
  ['deletion', 'Testwll', ['Tessa Testwell']],
  ['insertion (9 letters)', 'Testtwell', ['Tessa Testwell']],
  ['substitution', 'Tastwell', ['Tessa Testwell']],
  ['a typo in the beginning of a word, while typing', 'Tsetw', ['Tessa Testwell']],
  ['two typos from 9 letters', 'Kignsridhe', ['Quentin Kingsridge']],
  ['two transpositions in the beginning of a long word, while typing', 'Iknsgridg', ['Quentin Kingsridge']],
  ['two typos under 9 letters: nothing', 'Tsetwlel', []],
  ['a typo in a word of 4 letters: nothing', 'Grya', []],
  ['a deletion in a word of 4 letters: nothing', 'Smih', []],
  ['inside a word is no match ("Oakley" is not "Mockley")', 'Oakley', ['Olive Oakley']],
  ['a word ended by a full stop is complete: no beginnings', 'Dr.', []],
  ['a beginning while typing', 'Dr', ['Drew Hall']],
  ['every word must match', 'Tessa Oakley', []],
  ['every word must match, each with its own typo', 'Tesas Tsetwell', ['Tessa Testwell']],
  [
    'ranking: exact, then beginning, then typo; ties newest first',
    'Smith',
    ['Blake Smith', 'Avery Smith', 'Sam Smithson', 'Ann Smyth'],
  ],
  [
    'ranking: exact, then typo, then typo in a beginning',
    'Smyth',
    ['Ann Smyth', 'Blake Smith', 'Avery Smith', 'Sam Smithson'],
  ],
  ['ranking: the sum over the words', 'Smith Avery', ['Avery Smith']],
  ['an email domain', 'kingsridge.test', ['Quentin Kingsridge']],
  ['an email address', 'tessa.testwell@example.test', ['Tessa Testwell']],
  ['the beginning of an address', 'tessa.test', ['Tessa Testwell']],
  ['an email local part, the @ typed', 'blake.s@', ['Blake Smith']],
  ['phone digits, as written', '(555) 014-2200', ['Tessa Testwell']],
  ['phone digits, together', '5550142200', ['Tessa Testwell']],
  ['the last four digits of a phone', '2209', ['Ann Smyth']],
];

describe('search typo rules', () => {
  let server: TestServer;
  let staff: Agent;

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    for (const patient of PATIENTS) await insertPatient(server.db, patient);
  });
  afterAll(() => server.close());

  const patients = async (query: string, limit = 10) => {
    const response = await staff.request<SearchResult[]>('POST', '/api/search', { body: { query, limit } });
    expect(response.status).toBe(200);
    return response.body.filter((r) => r.type === 'patient').map((r) => r.title);
  };

  it.each(CASES)('%s: %s', async (_rule, query, expected) => {
    expect(await patients(query)).toEqual(expected);
  });

  it('finds every address of an email domain, and only those', async () => {
    const found = await patients('example.test', 50);
    expect(found.toSorted()).toEqual(
      PATIENTS.filter((p) => p.email.endsWith('@example.test'))
        .map((p) => p.name)
        .toSorted(),
    );
  });

  it('ranks exact above beginning above typos', () => {
    expect(COSTS.exact).toBeLessThan(COSTS.prefix);
    expect(COSTS.prefix).toBeLessThan(COSTS.typo);
    expect(COSTS.typo + COSTS.prefix).toBeLessThan(COSTS.twoTypos);
  });
});
