import type { RecordScope, SearchResult } from '@wellrest/core';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertKits, insertPatient } from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { type DirectoryData, searchDirectoryFor } from './directory.js';
import { directoryMatcher } from './directory-matcher.js';
import { fuzzyThreshold, type Matcher, typedNumber } from './matching.js';
import { sqlMatcher } from './store.js';
import { wordSimilarity } from './trigrams.js';

const FIRST = [
  'Avery',
  'Blake',
  'Sophia',
  'James',
  'Maria',
  "D'Arcy",
  'Jo-Ann',
  'Li',
  'Annabelle',
  'Mohammed',
];
const LAST = [
  'Smith',
  'Smyth',
  'Garcia',
  'Carter',
  "O'Brien",
  'Kingsridge',
  'Ng',
  'Smithson',
  'Okafor',
  'Lee-Wong',
];

const QUERIES = [
  'Avery Smith',
  'smyth',
  'Smtih',
  'Gacrai',
  'garcia sophia',
  'Kingsridge',
  'Kingsrigde',
  'mith',
  'mit',
  'ry Sm',
  "O'Brien",
  'jo-ann',
  'Li Ng',
  'ng',
  'an',
  'ANNA',
  'annabelle.okafor',
  'sophia.carter',
  '0142',
  '555',
  'SLV-00',
  'lakeside',
  '1234567',
  'Okafr',
  '#12',
  '%_\\',
  'zzzz',
];

const ALL: RecordScope = { kind: 'all' };

/** A result list as both sides order it: score to float precision, ties by id. */
function ranked(rows: { id: number; score: number }[]): string[] {
  return rows
    .map((row) => ({ id: row.id, score: Math.round(row.score * 1e5) / 1e5 }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .map((row) => `${row.id}:${row.score}`);
}

async function inSql<T>(db: Knex, q: string, work: (matcher: Matcher) => Promise<T> | T): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT set_config('pg_trgm.word_similarity_threshold', ?, true)", [
      String(fuzzyThreshold(q)),
    ]);
    return work(sqlMatcher(trx));
  });
}

/** The referrals of everyone `q` finds, as the search asks for them. */
async function referralsOf(matcher: Matcher, q: string) {
  const patients = await matcher.patients(q, 50, ALL);
  const physicians = await matcher.physicians(q, 50, ALL);
  return matcher.referrals(
    q,
    1000,
    {
      referralId: typedNumber(q),
      patientIds: patients.map((p) => p.id),
      physicianIds: physicians.map((p) => p.id),
    },
    ALL,
  );
}

describe('search directory', () => {
  let server: TestServer;
  let staff: Agent;

  const search = async (query: string) =>
    (await staff.request<SearchResult[]>('POST', '/api/search', { body: { query, limit: 50 } })).body;
  const current = async (): Promise<DirectoryData> => {
    const data = await searchDirectoryFor(server.db).current();
    if (!data) throw new Error('the directory is not current');
    return data;
  };

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    let n = 0;
    for (const first of FIRST)
      for (const last of LAST) {
        n++;
        await insertPatient(server.db, {
          name: n % 7 === 0 ? `${first} M. ${last}` : `${first} ${last}`,
          email: `${first}.${last}${n}@example.test`.replace(/['-]/g, '').toLowerCase(),
          phone: `555-${String(1000 + n * 37).slice(-4)}`,
        });
      }
    await server.db('physicians').insert([
      { name: 'Helena Okafor', npi: '1234567893', practice: 'Lakeside Sleep Centre' },
      { name: 'Samuel Smith', npi: '1987654321', practice: 'Riverside Pulmonology' },
      { name: 'Ann Kingsridge', npi: '1122334455', practice: null },
    ]);
    await insertKits(server.db, 'SleepView', 12);
    // Referrals from each physician for every fifth patient.
    const physicians = (await server.db('physicians').select('id')) as { id: number }[];
    const patients = (await server.db('patients').select('id').orderBy('id')) as { id: number }[];
    await server.db('referrals').insert(
      patients
        .filter((_, i) => i % 5 === 0)
        .map((patient, i) => ({
          request_id: `directory-ref-${i}`,
          physician_id: physicians[i % physicians.length]?.id,
          patient_id: patient.id,
          urgency: i % 2 === 0 ? 'routine' : 'urgent',
          reason: 'Snoring',
        })),
    );
  });
  afterAll(() => server.close());

  it('computes word similarity exactly as pg_trgm does', async () => {
    const names = (await server.db('patients').select('name'))
      .map((r: { name: string }) => r.name)
      .slice(0, 40);
    for (const q of ['smith', 'Smtih', 'annsmith', 'jo-ann', "o'brien", 'Li Ng', 'ma', 'Kingsrigde']) {
      const result = await server.db.raw(
        'SELECT n AS name, word_similarity(?, n) AS s FROM unnest(?::text[]) n',
        [q, names],
      );
      for (const row of result.rows as { name: string; s: number }[])
        expect(wordSimilarity(q, row.name), `${q} / ${row.name}`).toBeCloseTo(Number(row.s), 6);
    }
  });

  it('matches patients, physicians and kits exactly as the SQL does', async () => {
    const data = await current();
    const memory = directoryMatcher(data);
    const physicianScope: RecordScope = { kind: 'some', anyOf: [{ physicianId: 2 }] };
    for (const q of QUERIES) {
      const sql = await inSql(server.db, q, async (matcher) => ({
        patients: await matcher.patients(q, 1000, ALL),
        physicians: await matcher.physicians(q, 1000, ALL),
        kits: await matcher.kits(q),
        scoped: await matcher.patients(q, 1000, physicianScope),
        referrals: await referralsOf(matcher, q),
      }));
      expect(ranked(await referralsOf(memory, q)), q).toEqual(ranked(sql.referrals));
      expect(ranked(await memory.patients(q, 1000, ALL)), q).toEqual(ranked(sql.patients));
      expect(ranked(await memory.physicians(q, 1000, ALL)), q).toEqual(ranked(sql.physicians));
      expect((await memory.kits(q)).map((k) => k.id).sort(), q).toEqual(sql.kits.map((k) => k.id).sort());
      expect(ranked(await memory.patients(q, 1000, physicianScope)), q).toEqual(ranked(sql.scoped));
    }
    // The first few in order, as each side ranks them (names in code point order, as the C and
    // C.UTF-8 collations of the embedded and test databases sort them).
    for (const q of QUERIES) {
      const sql = await inSql(server.db, q, async (matcher) => matcher.patients(q, 5, ALL));
      const top = (rows: { id: number; name: string; score: number }[]) =>
        rows.map((r) => `${r.id}:${r.name}:${Math.round(r.score * 1e5) / 1e5}`);
      expect(top(await memory.patients(q, 5, ALL)), q).toEqual(top(sql));
    }
    // The lists compared are not empty: the queries exercise every kind of match.
    const found = await inSql(server.db, 'smyth', (matcher) => matcher.patients('smyth', 1000, ALL));
    expect(found.length).toBeGreaterThan(10);
    expect((await referralsOf(memory, 'smyth')).length).toBeGreaterThan(5);
  });

  it('follows new, renamed and deleted records at the next search', async () => {
    const titles = async (q: string) => (await search(q)).map((r) => r.title);
    const patient = await insertPatient(server.db, { name: 'Quentin Zabriskie' });
    expect(await titles('Zabriskie')).toContain('Quentin Zabriskie');
    await server.db('patients').where({ id: patient.id }).update({ name: 'Quentin Abernathy' });
    expect(await titles('Zabriskie')).not.toContain('Quentin Zabriskie');
    expect(await titles('Abernathy')).toContain('Quentin Abernathy');
    await server.db('patients').where({ id: patient.id }).del();
    expect(await titles('Abernathy')).toEqual([]);

    const [kit] = await insertKits(server.db, 'Somfit', 1);
    await server.db('kits').where({ id: kit?.id }).update({ kit_id: 'QXW-RELABEL' });
    expect((await current()).kits.get(kit?.id ?? 0)?.label).toBe('QXW-RELABEL');
    await server.db('physicians').insert({ name: 'Thaddeus Wolcott', npi: '1555555555' });
    expect(await titles('Wolcot')).toContain('Thaddeus Wolcott');
  });

  // The embedded engine has one connection: no second transaction can be held open beside a request.
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'asks PostgreSQL while a change is in flight, and catches up once it commits',
    async () => {
      const patient = await insertPatient(server.db, { name: 'Imogen Featherstone' });
      await search('Featherstone');
      const change = await server.db.transaction();
      try {
        await change('patients').where({ id: patient.id }).update({ name: 'Imogen Wetherby' });
        const statements: string[] = [];
        const onQuery = (query: { sql: string }) => statements.push(query.sql);
        server.db.on('query', onQuery);
        const during = await search('Featherstone');
        server.db.off('query', onQuery);
        // Answered by the SQL matching, which sees only what is committed.
        expect(statements.some((sql) => sql.includes('word_similarity_threshold'))).toBe(true);
        expect(during.map((r) => r.title)).toContain('Imogen Featherstone');
        expect((await search('Wetherby')).map((r) => r.title)).not.toContain('Imogen Wetherby');
        await change.commit();
      } finally {
        if (!change.isCompleted()) await change.rollback();
      }
      expect((await search('Wetherby')).map((r) => r.title)).toContain('Imogen Wetherby');
      expect((await search('Featherstone')).map((r) => r.title)).not.toContain('Imogen Featherstone');
    },
  );

  it('answers from memory while nothing changes: no name matching in SQL, a constant query count', async () => {
    await search('Avery Smith');
    const statements: string[] = [];
    const onQuery = (query: { sql: string }) => statements.push(query.sql);
    server.db.on('query', onQuery);
    try {
      expect((await search('Avery Smith')).length).toBeGreaterThan(0);
    } finally {
      server.db.off('query', onQuery);
    }
    // Neither fuzzy matching nor a read of the patients, physicians or kits tables themselves.
    expect(statements.filter((sql) => /<%|set_config|from "(patients|physicians|kits)"/i.test(sql))).toEqual(
      [],
    );
    const count = await countQueries(server.db, () => search('Smtih'));
    expect(count).toBe(statements.length);
  });
});
