import { messages, type SearchResult } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEventRow } from '../../audit/audit.js';
import {
  insertBooking,
  insertKits,
  insertPatient,
  linkPhysician,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { RELATED_CANDIDATES } from './matching.js';

describe('search API', () => {
  let server: TestServer;
  let staff: Agent;
  let smith: { id: number };
  let booking: number;
  let kitLabel: string;

  beforeAll(async () => {
    server = await getTestServer();
    staff = await server.loginAs('staff');
    smith = await insertPatient(server.db, {
      name: 'Avery Smith',
      email: 'avery.smith@example.test',
      phone: '555-0142',
      physicianId: 61,
    });
    await insertPatient(server.db, {
      name: 'Blake Jones',
      email: 'blake@example.test',
      phone: '555-0177',
      physicianId: 62,
    });
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    kitLabel = kit?.kitId ?? '';
    booking = await insertBooking(server.db, {
      patientId: smith.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: wednesdayAhead(0),
    });
  });
  afterAll(() => server.close());

  const search = (agent: Agent, query: unknown, limit?: number) =>
    agent.request<SearchResult[]>('POST', '/api/search', { body: { query, ...(limit ? { limit } : {}) } });

  it('finds patients and their bookings by name, with a typo, ranked, with result urls', async () => {
    const exact = await search(staff, 'Avery Smith');
    expect(exact.status).toBe(200);
    expect(exact.body[0]).toEqual({
      type: 'patient',
      id: smith.id,
      title: 'Avery Smith',
      subtitle: 'avery.smith@example.test',
      url: `/patients#patient-${smith.id}`,
    });
    expect(exact.body).toContainEqual(
      expect.objectContaining({
        type: 'booking',
        id: booking,
        url: `/bookings-management?booking=${booking}`,
      }),
    );
    const typo = await search(staff, 'smyth');
    expect(typo.body.map((r) => r.id)).toContain(smith.id);
    expect(typo.body.map((r) => r.title)).not.toContain('Blake Jones');
  });

  it('matches every word of a longer query, each allowing a typo', async () => {
    const other = await insertPatient(server.db, {
      name: 'Avery Jones',
      email: 'avery.j@example.test',
      phone: '555-9901',
    });
    const both = (await search(staff, 'Avery Smyth')).body.filter((r) => r.type === 'patient');
    expect(both.map((r) => r.id)).toEqual([smith.id]);
    expect(both.map((r) => r.id)).not.toContain(other.id);
  });

  it('finds by email prefix, phone digits, kit label and booking id', async () => {
    expect((await search(staff, 'blake@')).body.map((r) => r.title)).toEqual(['Blake Jones']);
    expect((await search(staff, '0177')).body.map((r) => r.title)).toEqual(['Blake Jones']);
    expect((await search(staff, kitLabel)).body).toContainEqual(
      expect.objectContaining({ type: 'booking', id: booking }),
    );
    expect((await search(staff, `#${booking}`)).body[0]).toMatchObject({ type: 'booking', id: booking });
  });

  it('finds names by the beginnings of their words while typing, and not inside a word', async () => {
    for (const query of ['SMIT', 'Ave', 'avery smi', 'Av Sm', 'smith av']) {
      const patients = (await search(staff, query)).body.filter((r) => r.type === 'patient');
      expect(
        patients.map((r) => r.id),
        query,
      ).toContain(smith.id);
    }
    // Inside a word is not a beginning: no match (the typo table is in search-typos.test.ts).
    for (const query of ['mith', 'very Smi', 'ry Sm']) {
      const patients = (await search(staff, query)).body.filter((r) => r.type === 'patient');
      expect(
        patients.map((r) => r.id),
        query,
      ).not.toContain(smith.id);
    }
  });

  it('returns at most `limit` results', async () => {
    for (let i = 0; i < 12; i++) await insertPatient(server.db, { name: `Limit Person ${i}` });
    expect((await search(staff, 'Limit Person')).body).toHaveLength(10);
    expect((await search(staff, 'Limit Person', 3)).body).toHaveLength(3);
  });

  it('ranks a common word by best match, then newest, however many patients share it', async () => {
    // The oldest patient has the typed surname and a near miss of it; more patients than a
    // search ever considers have only the near miss, and are newer; a few newer have only the
    // surname. The oldest still matches at its best: after the exact newer ones, before any
    // near miss.
    const oldest = await insertPatient(server.db, { name: 'Quillfern Quilfern' });
    const nearMisses = [];
    for (let i = 0; i < RELATED_CANDIDATES + 5; i++)
      nearMisses.push(await insertPatient(server.db, { name: `Ansel Quilfern ${i}` }));
    const exact = [];
    for (let i = 0; i < 3; i++) exact.push(await insertPatient(server.db, { name: `Bryn Quillfern ${i}` }));
    const shown = (await search(staff, 'Quillfern', 10)).body.map((r) => `${r.type} ${r.id}`);
    expect(shown).toEqual(
      [...[...exact].reverse(), oldest, ...[...nearMisses].reverse().slice(0, 6)].map(
        (p) => `patient ${p.id}`,
      ),
    );
  });

  it('shows the bookings of the patients found until `limit` patients outrank them', async () => {
    const [kit] = await insertKits(server.db, 'SleepView', 1);
    const patients = [];
    for (const name of ['Quilla Vantreece', 'Orrin Vantreece', 'Pell Vantreece']) {
      const patient = await insertPatient(server.db, { name });
      const id = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'SleepView',
        startDate: wednesdayAhead(patients.length + 2),
      });
      patients.push({ patient: patient.id, booking: id });
    }
    const kinds = async (limit: number) =>
      (await search(staff, 'Vantreece', limit)).body.map((r) => `${r.type} ${r.id}`);
    // Three patients match exactly (score 1); each booking is found through its patient (0.9):
    // under a limit of five the bookings follow the patients, newest first.
    const newestFirst = [...patients].reverse();
    expect(await kinds(5)).toEqual([
      ...newestFirst.map((p) => `patient ${p.patient}`),
      ...newestFirst.slice(0, 2).map((p) => `booking ${p.booking}`),
    ]);
    // With as many patients shown as the limit, nothing found through them can be shown.
    expect(await kinds(3)).toEqual(newestFirst.map((p) => `patient ${p.patient}`));
    expect(await kinds(2)).toEqual(newestFirst.slice(0, 2).map((p) => `patient ${p.patient}`));
  });

  it('needs 2 characters, and audits without the query text', async () => {
    const short = await search(staff, 'a');
    expect(short.status).toBe(400);
    expect((short.body as unknown as { fields: Record<string, string> }).fields.query).toBe(
      messages.search.minChars,
    );
    await search(staff, 'Avery');
    const events = await server.db('audit_events').where({ action: 'search.query' });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toMatch(/Avery|smyth|blake/i);
  });

  it('audits each search with what it showed: who, from where, and the records of each kind', async () => {
    const latest = async () =>
      (await server
        .db('audit_events')
        .where({ action: 'search.query' })
        .orderBy('id', 'desc')
        .first()) as AuditEventRow;
    const shown = (await search(staff, 'Avery Smith')).body;
    const ids = (type: SearchResult['type']) =>
      shown
        .filter((r) => r.type === type)
        .map((r) => r.id)
        .join(',');
    expect(ids('patient')).toBe(String(smith.id));
    expect(ids('booking')).not.toBe('');
    const event = await latest();
    expect(event).toMatchObject({
      actor_user_id: staff.user.id,
      actor_username: staff.user.username,
      entity_type: 'patient',
      entity_id: String(smith.id),
      outcome: 'success',
    });
    expect(event.ip).not.toBeNull();
    expect(event.details).toEqual({
      results: shown.length,
      count: 1,
      ids: ids('patient'),
      bookingIds: ids('booking'),
      referralIds: ids('referral'),
    });
    expect(await server.db('audit_chain').where({ event_id: event.id }).first()).toBeDefined();

    expect((await search(staff, 'Zzyzx Quorble')).body).toEqual([]);
    const nothing = await latest();
    expect(nothing.id).toBeGreaterThan(event.id);
    expect(nothing.entity_id).toBeNull();
    expect(nothing.details).toEqual({ results: 0, count: 0, ids: '', bookingIds: '', referralIds: '' });
  });

  it('finds physicians by name, NPI and practice, and referrals by patient or physician', async () => {
    const [doctor] = (await server
      .db('physicians')
      .insert({ name: 'Helena Okafor', npi: '1234567893', practice: 'Lakeside Sleep Centre' })
      .returning('id')) as { id: number }[];
    const [referral] = (await server
      .db('referrals')
      .insert({
        request_id: 'search-ref-1',
        physician_id: doctor?.id,
        patient_id: smith.id,
        urgency: 'urgent',
        reason: 'Loud snoring',
      })
      .returning('id')) as { id: number }[];
    const physicianResult = expect.objectContaining({
      type: 'physician',
      id: doctor?.id,
      title: 'Helena Okafor',
      url: `/physicians/${doctor?.id}`,
    });
    const referralResult = expect.objectContaining({
      type: 'referral',
      id: referral?.id,
      url: `/referrals?referral=${referral?.id}`,
    });
    const byName = (await search(staff, 'Okafr')).body;
    expect(byName).toContainEqual(physicianResult);
    expect(byName).toContainEqual(referralResult);
    expect((await search(staff, '1234567')).body).toContainEqual(physicianResult);
    expect((await search(staff, 'Lakeside')).body).toContainEqual(physicianResult);
    expect((await search(staff, 'Avery Smith')).body).toContainEqual(referralResult);
    expect((await search(staff, `#${referral?.id}`)).body).toContainEqual(referralResult);
  });

  it('runs the same number of queries however many kits and bookings match', async () => {
    // Labels with no digits to match a phone by and no name-like words, so that both searches
    // below take the same steps and differ only in how many kits and bookings they find.
    const kits = (
      (await server
        .db('kits')
        .insert(
          Array.from({ length: 12 }, (_, i) => ({
            kit_id: `ZQX-${String.fromCharCode(65 + i)}`,
            type: 'SleepView',
            status: 'available',
            serial_number: `SN-ZQX-${String.fromCharCode(65 + i)}`,
          })),
        )
        .returning(['id', 'kit_id'])) as { id: number; kit_id: string }[]
    ).map((k) => ({ id: k.id, kitId: k.kit_id }));
    for (const kit of kits) {
      const patient = await insertPatient(server.db);
      await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit.id,
        kitType: 'SleepView',
        startDate: wednesdayAhead(1),
      });
    }
    // Each query once first: what its words match is then kept (matches-cache.ts).
    await search(staff, 'ZQX');
    await search(staff, 'ZQX-B');
    const pools = [server.db, server.genericPlans];
    const one = await countQueries(pools, () => search(staff, 'ZQX-B'));
    const twelve = await countQueries(pools, async () => {
      const response = await search(staff, 'ZQX');
      expect(response.body.filter((r) => r.type === 'booking')).toHaveLength(10);
    });
    expect(twelve).toBe(one);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'runs its statements on connections that keep their generic plan, with the same answers',
    async () => {
      const mode = await server.genericPlans.raw('SHOW plan_cache_mode');
      expect(mode.rows).toEqual([{ plan_cache_mode: 'force_generic_plan' }]);
      expect((await server.db.raw('SHOW plan_cache_mode')).rows).toEqual([{ plan_cache_mode: 'auto' }]);
      const runs = async (query: string) => {
        // The session just used, and resumed in full: the runs below confirm it in their statement.
        await server
          .db('sessions')
          .where({ user_id: staff.user.id })
          .update({ last_seen_at: server.db.fn.now() });
        expect((await staff.request('GET', '/api/auth/me')).status).toBe(200);
        const first = (await search(staff, query)).body;
        expect(first.map((r) => r.title)).toContain('Avery Smith');
        let generic = 0;
        // PostgreSQL makes its own plans for the first five runs of a prepared statement.
        const main = await countQueries(server.db, async () => {
          generic = await countQueries(server.genericPlans, async () => {
            for (let run = 0; run < 7; run++) expect((await search(staff, query)).body).toEqual(first);
          });
        });
        return { generic, main };
      };
      // The answer with its audit event there (its words' matches were kept from the first run),
      // with one word or several, and the session confirmed in the same statement: none on the main pool.
      const one = await runs('Smiht');
      expect(one.generic).toBe(7);
      expect(one.main).toBe(0);
      const two = await runs('Avery Smiht');
      expect(two.generic).toBe(7);
      expect(two.main).toBe(0);
    },
  );

  it('finds the same records in the same order whichever order the words are typed in', async () => {
    // A middle initial most patients share and a surname few have: the statement joins the rarest
    // term first (words.ts inJoinOrder), whatever was typed first.
    for (let i = 0; i < 12; i++) await insertPatient(server.db, { name: `Marlo V. Pennick${i}` });
    await insertPatient(server.db, { name: 'Idris V. Quellmoor' });
    await insertPatient(server.db, { name: 'Idris V. Quellmore' });
    await insertPatient(server.db, { name: 'Idris W. Quellmoor' });
    const answers = [];
    for (const query of ['Idris V. Quellmoor', 'Quellmoor V. Idris', 'V. Quellmoor Idris']) {
      const response = await search(staff, query);
      expect(response.status).toBe(200);
      answers.push(response.body.map((r) => r.title));
    }
    // The exact match first, then the surname one typo away; the other initial matches no one.
    expect(answers[0]).toEqual(['Idris V. Quellmoor', 'Idris V. Quellmore']);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('finds a rare surname with a common first name and a middle initial, exact matches first', async () => {
    // A first name a hundred patients share against a surname three hold (with its typos): the
    // statement looks the common word up for each of the three rather than reading its entries
    // (statement.ts matchedRecords); with the initial, the initial is read first and both names
    // are joined to it. What is found, and in which order, is the same as reading every entry.
    for (let i = 0; i < 100; i++) await insertPatient(server.db, { name: `Corwenna Tessmark${i}` });
    await insertPatient(server.db, { name: 'Corwenna Q. Zabrowski' });
    await insertPatient(server.db, { name: 'Corwenna Zabrowsky' });
    await insertPatient(server.db, { name: 'Corwena Zabrowski' });
    const patients = async (query: string) =>
      (await search(staff, query)).body.filter((r) => r.type === 'patient').map((r) => r.title);
    // The exact match first, then the two a typo away, the newest first.
    const both = ['Corwenna Q. Zabrowski', 'Corwena Zabrowski', 'Corwenna Zabrowsky'];
    expect(await patients('Corwenna Zabrowski')).toEqual(both);
    expect(await patients('Zabrowski Corwenna')).toEqual(both);
    expect(await patients('Corwenna Q. Zabrowski')).toEqual(['Corwenna Q. Zabrowski']);
    expect(await patients('Q. Corwena Zabrowsky')).toEqual(['Corwenna Q. Zabrowski']);
    // Two words of similar numbers, hashed: the exact match first, then the longer words it begins.
    expect((await patients('Corwenna Tessmark7'))[0]).toBe('Corwenna Tessmark7');
  });

  it('keeps what a query matches until the vocabulary grows: a new word is found at once', async () => {
    const patients = async (query: string) =>
      (await search(staff, query)).body.filter((r) => r.type === 'patient').map((r) => r.title);
    const pools = [server.db, server.genericPlans];
    expect(await patients('Quorvin')).toEqual([]);
    expect(await patients('Qourvinder')).toEqual([]);
    // The same query again reads no words: one statement, the answer confirming the session.
    expect(await countQueries(pools, () => patients('Vantrel'))).toBeGreaterThan(2);
    expect(await countQueries(pools, () => patients('Vantrel'))).toBe(1);
    // A patient written straight to the database, as another process would: its words are new.
    await insertPatient(server.db, { name: 'Tamsin Quorvinder' });
    expect(await patients('Quorvin')).toEqual(['Tamsin Quorvinder']);
    expect(await patients('Qourvinder')).toEqual(['Tamsin Quorvinder']);
    // A patient with known words only leaves the kept matches as they were, and is found too.
    await insertPatient(server.db, { name: 'Avery Quorvinder' });
    expect(await patients('Quorvin')).toEqual(['Avery Quorvinder', 'Tamsin Quorvinder']);
  });

  it('shows a physician only their own patients', async () => {
    const user = await server.createUser({ role: 'physician' });
    await linkPhysician(server.db, user.id, 62);
    const physician = await server.loginAs(user.username);
    expect((await search(physician, 'Avery')).body).toEqual([]);
    expect((await search(physician, 'Blake')).body.map((r) => r.title)).toEqual(['Blake Jones']);
    expect((await server.request('POST', '/api/search', { body: { query: 'Avery' } })).status).toBe(401);
  });
});
