import {
  addDays,
  type BookingEvent,
  type BookingListItem,
  type ExtensionEligibility,
  formatDate,
  messages,
  operationMessages,
  type Page,
  type ReductionEligibility,
  testDates,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  linkPhysician,
  practiceTodayForTests,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { countQueries } from '../../test/query-counter.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

describe('bookings API', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  /** Runs `work` on a server of its own, for tests that need to know every kit of a type. */
  async function isolated(work: (local: TestServer, agent: Agent) => Promise<void>): Promise<void> {
    const local = await getTestServer();
    try {
      await work(local, await local.loginAs('scheduler'));
    } finally {
      await local.close();
    }
  }

  const bookingCount = async () => Number((await server.db('bookings').count({ n: '*' }))[0]?.n);

  it('creates a confirmed booking on the lowest free kit, with the dates the rules give', async () => {
    const kits = await insertKits(server.db, 'SleepView', 3);
    const patient = await insertPatient(server.db, { name: 'Gale Placeholder' });
    const startDate = wednesdayAhead(0);
    const created = await scheduler.request<BookingListItem>('POST', '/api/bookings', {
      // The client's end and return dates are ignored.
      body: {
        patientId: patient.id,
        testType: '3-day',
        kitType: 'SleepView',
        startDate,
        endDate: '2000-01-01',
        returnDate: '2000-01-02',
        notes: 'Front desk pickup',
      },
    });
    expect(created.status).toBe(201);
    const dates = testDates(startDate, '3-day');
    expect(created.body).toMatchObject({
      patientId: patient.id,
      patientName: 'Gale Placeholder',
      kitId: kits[0]?.id,
      kitLabel: kits[0]?.kitId,
      testType: '3-day',
      kitType: 'SleepView',
      status: 'confirmed',
      ...dates,
      notes: 'Front desk pickup',
    });

    // The next booking for an overlapping window gets the next kit; a pending one stays pending.
    const second = await scheduler.request<BookingListItem>('POST', '/api/bookings', {
      body: {
        patientId: patient.id,
        kitType: 'SleepView',
        startDate,
        status: 'pending',
        allowDuplicate: true,
      },
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ kitId: kits[1]?.id, status: 'pending', testType: '2-day' });

    const history = await scheduler.request<BookingEvent[]>('GET', `/api/bookings/${created.body.id}/events`);
    expect(history.body).toMatchObject([
      { action: 'created', fromStatus: null, toStatus: 'confirmed', actorUserId: scheduler.user.id },
    ]);
    const audit = await server
      .db('audit_events')
      .where({ action: 'booking.create', entity_id: String(created.body.id) });
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('Gale');
    const outbox = await server
      .db('outbox_events')
      .where({ topic: 'booking.created' })
      .whereRaw("payload->>'bookingId' = ?", [String(created.body.id)]);
    expect(outbox.map((row) => row.payload)).toEqual([
      { bookingId: created.body.id, from: null, to: 'confirmed' },
    ]);
  });

  it('writes a booking in a fixed number of statements: its history, event and audit go with the answer', async () => {
    await insertKits(server.db, 'Somfit', 2);
    const patient = await insertPatient(server.db);
    let status = 0;
    const statements = await countQueries(server.db, async () => {
      const created = await scheduler.request('POST', '/api/bookings', {
        body: { patientId: patient.id, kitType: 'Somfit', startDate: wednesdayAhead(3) },
      });
      status = created.status;
    });
    expect(status).toBe(201);
    // The session, BEGIN, the patient with the duplicate lock, the duplicate check, a savepoint
    // (a deadlock between kit claims is run again from it), the kits, their holds, the kit
    // claimed and the booking inserted on it, the savepoint released, the history, event and
    // audit with the answer, and COMMIT.
    expect(statements).toBe(11);
  });

  it('answers 409 with the spec message when no kit of the type is free', async () => {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1);
    const patient = await insertPatient(server.db);
    const startDate = wednesdayAhead(1);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Z-Machine',
      startDate,
    });
    const before = await bookingCount();
    const other = await insertPatient(server.db);
    const refused = await scheduler.request('POST', '/api/bookings', {
      body: { patientId: other.id, kitType: 'Z-Machine', startDate },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(messages.booking.kitNotAvailable('Z-Machine'));
    expect(await bookingCount()).toBe(before);
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const patient = await insertPatient(server.db);
    await insertKits(server.db, 'Somfit', 1);
    const before = await bookingCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ kitType: 'Somfit', startDate: wednesdayAhead(2) }, 'patientId', 'Invalid input'],
      [
        { patientId: patient.id, kitType: 'Somfit', startDate: '2026-02-30' },
        'startDate',
        messages.dates.invalidDate,
      ],
      [
        { patientId: patient.id, kitType: 'Somfit', startDate: addDays(wednesdayAhead(2), 2) },
        'startDate',
        messages.booking.invalidStartDay,
      ],
      [
        { patientId: patient.id, kitType: 'Somfit', startDate: addDays(practiceTodayForTests(), -7) },
        'startDate',
        operationMessages.startDateInPast,
      ],
      [
        { patientId: patient.id, kitType: 'Somfit', startDate: wednesdayAhead(2), status: 'completed' },
        'status',
        operationMessages.createStatusNotAllowed,
      ],
      [
        { patientId: 999_999, kitType: 'Somfit', startDate: wednesdayAhead(2) },
        'patientId',
        operationMessages.patientNotFound,
      ],
      [{ patientId: patient.id, kitType: 'Unknown', startDate: wednesdayAhead(2) }, 'kitType', ''],
    ];
    for (const [body, field, message] of cases) {
      const response = await scheduler.request<{ error: string; fields: Record<string, string> }>(
        'POST',
        '/api/bookings',
        { body },
      );
      expect(response.status, field).toBe(400);
      expect(Object.keys(response.body.fields)).toEqual([field]);
      if (message && message !== 'Invalid input') expect(response.body.fields[field]).toBe(message);
    }
    expect(await bookingCount()).toBe(before);
  });

  it('keeps a page total until bookings change, and counts again after any change', async () => {
    await isolated(async (local, agent) => {
      const kits = await insertKits(local.db, 'Somfit', 3);
      const patient = await insertPatient(local.db, { name: 'Tess Totals' });
      const page = async (filter = '') =>
        (await agent.request<Page<BookingListItem>>('GET', `/api/bookings?page=1&pageSize=1${filter}`)).body
          .total;
      const first = await insertBooking(local.db, {
        patientId: patient.id,
        kitId: kits[0]?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(0),
      });
      expect(await page()).toBe(1);

      // Asked again with nothing changed: the kept total, no count.
      const statements: string[] = [];
      const record = (query: { sql: string }) => statements.push(query.sql);
      local.db.on('query', record);
      try {
        expect(await page()).toBe(1);
      } finally {
        local.db.off('query', record);
      }
      // The session (with the versions), the page, the audit row.
      expect(statements).toHaveLength(3);
      expect(statements.some((sql) => /^select count\(\*\)/i.test(sql))).toBe(false);

      // A booking written straight into the table is counted at once, under each filter.
      const second = await insertBooking(local.db, {
        patientId: patient.id,
        kitId: kits[1]?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(1),
        status: 'pending',
      });
      expect(await page()).toBe(2);
      expect(await page('&status=pending')).toBe(1);
      expect(await page('&status=confirmed&status=pending')).toBe(2);

      // A change of status through the API, then a deletion.
      const confirmed = await agent.request('POST', `/api/bookings/${second}/status`, {
        body: { status: 'confirmed' },
      });
      expect(confirmed.status).toBe(200);
      expect(await page('&status=pending')).toBe(0);
      expect(await page('&status=pending&status=confirmed')).toBe(2);
      await local.db('bookings').where({ id: first }).delete();
      expect(await page()).toBe(1);
      expect(await page('&status=confirmed')).toBe(1);
    });
  });

  it('lists bookings with patient names, filters and pages them, in constant queries', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('staff');
      const kits = await insertKits(local.db, 'Somfit', 30);
      const ada = await insertPatient(local.db, { name: 'Ada Listing' });
      const ben = await insertPatient(local.db, { name: 'Ben Listing' });
      const first = await insertBooking(local.db, {
        patientId: ada.id,
        kitId: kits[0]?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(0),
      });
      await insertBooking(local.db, {
        patientId: ben.id,
        kitId: kits[1]?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(1),
        status: 'pending',
      });
      const few = await countQueries(local.db, () => agent.request('GET', '/api/bookings'));
      const all = await agent.request<BookingListItem[]>('GET', '/api/bookings');
      expect(all.body.map((b) => b.patientName)).toEqual(['Ada Listing', 'Ben Listing']);
      expect(all.body[0]).toMatchObject({
        id: first,
        kitLabel: kits[0]?.kitId,
        startDate: wednesdayAhead(0),
      });
      expect(all.body[0]?.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      const pending = await agent.request<BookingListItem[]>('GET', '/api/bookings?status=pending');
      expect(pending.body.map((b) => b.patientName)).toEqual(['Ben Listing']);
      const byPatient = await agent.request<BookingListItem[]>(`GET`, `/api/bookings?patientId=${ada.id}`);
      expect(byPatient.body.map((b) => b.id)).toEqual([first]);
      const window = await agent.request<BookingListItem[]>(
        'GET',
        `/api/bookings?from=${wednesdayAhead(1)}&to=${addDays(wednesdayAhead(1), 1)}`,
      );
      expect(window.body.map((b) => b.patientName)).toEqual(['Ben Listing']);
      const byName = await agent.request<Page<BookingListItem>>(
        'GET',
        '/api/bookings?q=ben&page=1&pageSize=5',
      );
      expect(byName.body).toMatchObject({ total: 1, page: 1, pageSize: 5 });
      const bad = await agent.request('GET', '/api/bookings?status=lost&from=tomorrow');
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['from', 'status']);

      for (let i = 2; i < 30; i++) {
        const p = await insertPatient(local.db);
        await insertBooking(local.db, {
          patientId: p.id,
          kitId: kits[i]?.id ?? null,
          kitType: 'Somfit',
          startDate: wednesdayAhead(0),
        });
      }
      const many = await countQueries(local.db, () => agent.request('GET', '/api/bookings'));
      expect(many).toBe(few);
      const paged = await countQueries(local.db, () =>
        agent.request('GET', '/api/bookings?page=1&pageSize=10'),
      );
      // A first page adds its total: the count and the quiet version it is kept under (a
      // transaction of three statements), whatever the page size; later pages use the kept total.
      expect(paged).toBe(few + 4);
      const widerPage = await countQueries(local.db, () =>
        agent.request('GET', '/api/bookings?page=1&pageSize=30'),
      );
      expect(widerPage).toBe(few);
    } finally {
      await local.close();
    }
  });

  it('moves a booking through the allowed statuses only, keeping the history', async () => {
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    const patient = await insertPatient(server.db);
    const id = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: wednesdayAhead(3),
      status: 'pending',
    });
    const steps: [string, number][] = [
      ['picked_up', 409],
      ['confirmed', 200],
      ['pending', 409],
      ['picked_up', 200],
      ['cancelled', 409],
      ['completed', 200],
      ['cancelled', 409],
    ];
    for (const [status, expected] of steps) {
      const response = await scheduler.request('POST', `/api/bookings/${id}/status`, {
        body: { status, reason: 'Patient called' },
      });
      expect(response.status, status).toBe(expected);
    }
    const refused = await scheduler.request('POST', `/api/bookings/${id}/status`, {
      body: { status: 'pending' },
    });
    expect(refused.body.error).toBe(operationMessages.invalidStatusChange('completed', 'pending'));
    const history = await scheduler.request<BookingEvent[]>('GET', `/api/bookings/${id}/events`);
    expect(history.body.map((e) => `${e.fromStatus}->${e.toStatus}`)).toEqual([
      'pending->confirmed',
      'confirmed->picked_up',
      'picked_up->completed',
    ]);
    expect(history.body[0]?.reason).toBe('Patient called');
    expect(
      (await scheduler.request('POST', `/api/bookings/${id}/status`, { body: { status: 'lost' } })).status,
    ).toBe(400);
    expect(
      (await scheduler.request('POST', '/api/bookings/999999/status', { body: { status: 'confirmed' } }))
        .status,
    ).toBe(404);
  });

  it('a cancelled booking frees its kit', () =>
    isolated(async (local, agent) => {
      const [kit] = await insertKits(local.db, 'Z-Machine', 1);
      const patient = await insertPatient(local.db);
      const startDate = wednesdayAhead(4);
      const first = await agent.request<BookingListItem>('POST', '/api/bookings', {
        body: { patientId: patient.id, kitType: 'Z-Machine', startDate },
      });
      expect(first.body.kitId).toBe(kit?.id);
      await agent.request('POST', `/api/bookings/${first.body.id}/status`, {
        body: { status: 'cancelled', reason: 'Patient rescheduled' },
      });
      const again = await agent.request<BookingListItem>('POST', '/api/bookings', {
        body: { patientId: patient.id, kitType: 'Z-Machine', startDate },
      });
      expect(again.status).toBe(201);
      expect(again.body.kitId).toBe(kit?.id);
    }));

  describe('extension and reduction', () => {
    it('extends on the same kit when it stays free, and reduces back, freeing the extra day', () =>
      isolated(async (local, agent) => {
        const kits = await insertKits(local.db, 'SleepView', 1);
        const kit = kits[0];
        const patient = await insertPatient(local.db);
        // A Monday start: the extended test ends Wednesday, the kit is back Thursday.
        const monday = addDays(wednesdayAhead(5), -2);
        const id = await insertBooking(local.db, {
          patientId: patient.id,
          kitId: kit?.id ?? null,
          kitType: 'SleepView',
          startDate: monday,
        });

        const eligibility = await agent.request<ExtensionEligibility>(
          'GET',
          `/api/bookings/${id}/extension-eligibility?_t=${Date.now()}`,
        );
        expect(eligibility.body).toEqual({
          canExtend: true,
          requiresKitSwap: false,
          reason: null,
          swapWarning: null,
          availableKitsCount: 1,
          kitType: 'SleepView',
          targetKitId: kit?.id,
        });
        const extended = await agent.request<BookingListItem>('POST', `/api/bookings/${id}/extend`);
        expect(extended.status).toBe(200);
        expect(extended.body).toMatchObject({
          testType: '3-day',
          kitId: kit?.id,
          ...testDates(monday, '3-day'),
        });

        const again = await agent.request<ExtensionEligibility>(
          'GET',
          `/api/bookings/${id}/extension-eligibility`,
        );
        expect(again.body).toMatchObject({ canExtend: false, reason: messages.extension.onlyTwoDay });
        expect((await agent.request('POST', `/api/bookings/${id}/extend`)).body.error).toBe(
          messages.extension.onlyTwoDay,
        );

        const reduction = await agent.request<ReductionEligibility>(
          'GET',
          `/api/bookings/${id}/reduction-eligibility?_t=1`,
        );
        expect(reduction.body).toEqual({
          canReduce: true,
          message: messages.reduction.canReduce(
            kit?.kitId ?? '',
            formatDate(testDates(monday, '2-day').returnDate),
            formatDate(testDates(monday, '3-day').returnDate),
          ),
          kitToFree: { id: kit?.id, kitId: kit?.kitId, type: 'SleepView' },
        });
        const reduced = await agent.request<BookingListItem>('POST', `/api/bookings/${id}/reduce`);
        expect(reduced.status).toBe(200);
        expect(reduced.body).toMatchObject({
          testType: '2-day',
          kitId: kit?.id,
          ...testDates(monday, '2-day'),
        });
        expect((await agent.request('POST', `/api/bookings/${id}/reduce`)).status).toBe(409);

        // The freed day is really free: a booking that needs the kit from Thursday gets it.
        const other = await insertPatient(local.db);
        const thursday = addDays(monday, 3);
        const next = await agent.request<BookingListItem>('POST', '/api/bookings', {
          body: { patientId: other.id, kitType: 'SleepView', startDate: thursday },
        });
        expect(next.status).toBe(201);
        expect(next.body.kitId).toBe(kit?.id);

        const history = await agent.request<BookingEvent[]>('GET', `/api/bookings/${id}/events`);
        expect(history.body.map((e) => e.action)).toEqual(['extended', 'reduced']);
        expect(history.body[1]?.details).toMatchObject({ freedKitId: kit?.id });
      }));

    it('extends onto another kit when its own is taken on the extra day, and frees the old one', () =>
      isolated(async (local, agent) => {
        const [own, spare] = await insertKits(local.db, 'Z-Machine', 2);
        const patient = await insertPatient(local.db);
        const monday = addDays(wednesdayAhead(6), -2);
        const id = await insertBooking(local.db, {
          patientId: patient.id,
          kitId: own?.id ?? null,
          kitType: 'Z-Machine',
          startDate: monday,
        });
        // The own kit is needed again from Thursday, the day the extended test would need for maintenance.
        await insertBooking(local.db, {
          patientId: patient.id,
          kitId: own?.id ?? null,
          kitType: 'Z-Machine',
          startDate: addDays(monday, 3),
        });

        const eligibility = await agent.request<ExtensionEligibility>(
          'GET',
          `/api/bookings/${id}/extension-eligibility`,
        );
        expect(eligibility.body).toMatchObject({
          canExtend: true,
          requiresKitSwap: true,
          swapWarning: messages.extension.swapWarning(own?.kitId ?? '', spare?.kitId ?? ''),
          targetKitId: spare?.id,
        });
        const extended = await agent.request<BookingListItem>('POST', `/api/bookings/${id}/extend`);
        expect(extended.body).toMatchObject({ kitId: spare?.id, testType: '3-day' });

        // The own kit is free on Monday-Tuesday now.
        const other = await insertPatient(local.db);
        const taken = await agent.request<BookingListItem>('POST', '/api/bookings', {
          body: { patientId: other.id, kitType: 'Z-Machine', startDate: monday },
        });
        expect(taken.status).toBe(201);
        expect(taken.body.kitId).toBe(own?.id);
      }));

    it('refuses with the reason when no kit is free, or the booking is not confirmed', () =>
      isolated(async (local, agent) => {
        const [kit] = await insertKits(local.db, 'Somfit', 1);
        const patient = await insertPatient(local.db);
        const monday = addDays(wednesdayAhead(7), -2);
        const id = await insertBooking(local.db, {
          patientId: patient.id,
          kitId: kit?.id ?? null,
          kitType: 'Somfit',
          startDate: monday,
        });
        await insertBooking(local.db, {
          patientId: patient.id,
          kitId: kit?.id ?? null,
          kitType: 'Somfit',
          startDate: addDays(monday, 3),
        });
        const refused = await agent.request('POST', `/api/bookings/${id}/extend`);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toBe(messages.extension.noKitAvailable('Somfit'));

        const pending = await insertBooking(local.db, {
          patientId: patient.id,
          kitId: null,
          kitType: 'Somfit',
          startDate: monday,
          testType: '3-day',
          status: 'pending',
        });
        const reduce = await agent.request('POST', `/api/bookings/${pending}/reduce`);
        expect(reduce.status).toBe(409);
        expect(reduce.body.error).toBe(messages.reduction.onlyConfirmed);
        const extension = await agent.request<ExtensionEligibility>(
          'GET',
          `/api/bookings/${pending}/extension-eligibility`,
        );
        expect(extension.body.canExtend).toBe(false);
      }));
  });

  describe('agreements', () => {
    it('opens a form with a hashed, expiring token for confirmed bookings only', async () => {
      const [kit] = await insertKits(server.db, 'SleepView', 1);
      const patient = await insertPatient(server.db, { name: 'Harper Placeholder' });
      const id = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'SleepView',
        startDate: wednesdayAhead(8),
      });
      const response = await scheduler.request<{ formUrl: string; patientName: string }>(
        'POST',
        `/api/bookings/${id}/initiate-agreement`,
      );
      expect(response.status).toBe(200);
      expect(response.body.patientName).toBe('Harper Placeholder');
      const token = new URL(response.body.formUrl, 'http://x').searchParams.get('token') ?? '';
      expect(response.body.formUrl).toMatch(/^\/agreement-form\?token=[\w-]{43}$/);
      const stored = await server.db('agreements').where({ booking_id: id }).first();
      expect(stored).toMatchObject({ status: 'sent', created_by: scheduler.user.id, signed_at: null });
      expect(stored.token_hash).not.toContain(token);
      const days =
        (new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()) / 86_400_000;
      expect(Math.round(days)).toBe(7);

      await scheduler.request('POST', `/api/bookings/${id}/status`, {
        body: { status: 'cancelled', reason: 'Patient rescheduled' },
      });
      const refused = await scheduler.request('POST', `/api/bookings/${id}/initiate-agreement`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(operationMessages.agreementOnlyConfirmed);
      expect((await scheduler.request('POST', '/api/bookings/999999/initiate-agreement')).status).toBe(404);
    });
  });

  describe('permissions', () => {
    it('a physician reads only their own patients\u2019 bookings and changes none', async () => {
      const [kit, kit2] = await insertKits(server.db, 'Somfit', 2);
      const mine = await insertPatient(server.db, { physicianId: 51 });
      const theirs = await insertPatient(server.db, { physicianId: 52 });
      const own = await insertBooking(server.db, {
        patientId: mine.id,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(9),
      });
      const other = await insertBooking(server.db, {
        patientId: theirs.id,
        kitId: kit2?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(9),
      });
      const user = await server.createUser({ role: 'physician' });
      await linkPhysician(server.db, user.id, 51);
      const physician = await server.loginAs(user.username);

      const list = await physician.request<BookingListItem[]>('GET', '/api/bookings');
      expect(list.body.map((b) => b.id)).toEqual([own]);
      expect((await physician.request('GET', `/api/bookings/${own}`)).status).toBe(200);
      expect((await physician.request('GET', `/api/bookings/${other}`)).status).toBe(404);
      expect((await physician.request('GET', `/api/bookings/${other}/extension-eligibility`)).status).toBe(
        404,
      );
      for (const path of [
        `/api/bookings/${own}/extend`,
        `/api/bookings/${own}/reduce`,
        `/api/bookings/${own}/initiate-agreement`,
      ]) {
        expect((await physician.request('POST', path)).status, path).toBe(403);
      }
      expect(
        (await physician.request('POST', `/api/bookings/${own}/status`, { body: { status: 'cancelled' } }))
          .status,
      ).toBe(403);
      expect(
        (
          await physician.request('POST', '/api/bookings', {
            body: { patientId: mine.id, kitType: 'Somfit', startDate: wednesdayAhead(10) },
          })
        ).status,
      ).toBe(403);
      expect((await physician.request('GET', '/api/sleep-test-kits')).status).toBe(403);
    });

    it('a technician may read and change a booking status but not create bookings', async () => {
      const technician = await server.loginAs('technician');
      const patient = await insertPatient(server.db);
      const response = await technician.request('POST', '/api/bookings', {
        body: { patientId: patient.id, kitType: 'Somfit', startDate: wednesdayAhead(10) },
      });
      expect(response.status).toBe(403);
      expect((await technician.request('GET', '/api/bookings')).status).toBe(200);
      expect((await technician.request('POST', '/api/bookings/1/extend')).status).toBe(403);
    });
  });

  it('lists kits as Kit entities', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('technician');
      const [kit] = await insertKits(local.db, 'Somfit', 1, 'maintenance');
      const response = await agent.request('GET', '/api/sleep-test-kits');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          id: kit?.id,
          kitId: kit?.kitId,
          type: 'Somfit',
          status: 'maintenance',
          serialNumber: `SN-${kit?.kitId}`,
          notes: null,
        },
      ]);
    } finally {
      await local.close();
    }
  });
});
