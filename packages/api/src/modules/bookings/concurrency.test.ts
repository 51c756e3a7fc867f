import { addDays, type BookingListItem, messages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';

// On the embedded engine requests run one after another; on a PostgreSQL server (DATABASE_URL)
// they truly race, and the exclusion constraint with the retry logic must keep them correct.
describe('concurrent booking operations', () => {
  let server: TestServer;
  let agents: Agent[];
  beforeAll(async () => {
    server = await getTestServer();
    agents = await Promise.all(Array.from({ length: 4 }, () => server.loginAs('scheduler')));
  });
  afterAll(() => server.close());

  it('20 simultaneous requests for the last free kit: one booking, nineteen 409s', async () => {
    const [taken] = await insertKits(server.db, 'SleepView', 2);
    const patient = await insertPatient(server.db);
    const startDate = wednesdayAhead(1);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: taken?.id ?? null,
      kitType: 'SleepView',
      startDate,
    });
    const before = Number((await server.db('bookings').count({ n: '*' }))[0]?.n);

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (agents[i % agents.length] as Agent).request<BookingListItem & { error?: string }>(
          'POST',
          '/api/bookings',
          {
            // Twenty bookings for one patient and date are meant here: the race is for the kit.
            body: { patientId: patient.id, kitType: 'SleepView', startDate, allowDuplicate: true },
          },
        ),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(r.body.error).toBe(messages.booking.kitNotAvailable('SleepView'));
    }
    expect(Number((await server.db('bookings').count({ n: '*' }))[0]?.n)).toBe(before + 1);
  });

  it('simultaneous requests for one kit type each take a different free kit: exactly as many as are free', async () => {
    await insertKits(server.db, 'Somfit', 6, 'available');
    await insertKits(server.db, 'Somfit', 1, 'maintenance');
    const startDate = wednesdayAhead(6);
    const free = (await server.db('kits').where({ type: 'Somfit', status: 'available' }).select('id')).map(
      (k) => Number(k.id),
    );
    const patients = await Promise.all(
      Array.from({ length: free.length + 4 }, () => insertPatient(server.db)),
    );

    const responses = await Promise.all(
      patients.map((patient, i) =>
        (agents[i % agents.length] as Agent).request<BookingListItem & { error?: string }>(
          'POST',
          '/api/bookings',
          {
            body: { patientId: patient.id, kitType: 'Somfit', startDate },
          },
        ),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created).toHaveLength(free.length);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(4);
    for (const r of responses.filter((x) => x.status === 409))
      expect(r.body.error).toBe(messages.booking.kitNotAvailable('Somfit'));
    // Every free kit taken once; none out of service.
    expect(created.map((r) => r.body.kitId).sort((a, b) => Number(a) - Number(b))).toEqual(
      [...free].sort((a, b) => a - b),
    );
  });

  it('many more requests than free kits, some kits booked under them as they run: only 201s and 409s', async () => {
    const kits = await insertKits(server.db, 'SleepView', 16, 'available');
    const startDate = wednesdayAhead(9);
    const patients = await Promise.all(Array.from({ length: 48 }, () => insertPatient(server.db)));
    // Bookings written straight into the database while the requests run: kits they read as free
    // are then taken when they claim them, and a request holding such a kit may wait for another's.
    const underneath = kits.slice(0, 4).map((kit, i) =>
      insertBooking(server.db, {
        patientId: patients[i]?.id ?? 0,
        kitId: kit.id,
        kitType: 'SleepView',
        startDate,
      }),
    );
    const [responses] = await Promise.all([
      Promise.all(
        patients.slice(4).map((patient, i) =>
          (agents[i % agents.length] as Agent).request<BookingListItem>('POST', '/api/bookings', {
            body: { patientId: patient.id, kitType: 'SleepView', startDate },
          }),
        ),
      ),
      Promise.all(underneath),
    ]);
    expect(responses.map((r) => r.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const booked = await server.db('bookings').where({ kit_type: 'SleepView', start_date: startDate });
    const free = await server.db('kits').where({ type: 'SleepView', status: 'available' }).select('id');
    // Every free kit (this test's and the earlier ones') taken once, from underneath or by a request.
    expect(booked).toHaveLength(free.length);
    expect(new Set(booked.map((row) => Number(row.kit_id))).size).toBe(free.length);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(free.length - underneath.length);
  });

  // A deadlock needs two sessions truly waiting on each other: PostgreSQL server only.
  it.runIf(Boolean(process.env.DATABASE_URL))(
    'a booking chosen to end a deadlock is run again and made, not answered 500',
    async () => {
      // Somfit: the extensions below count on the Z-Machine kits they make.
      await insertKits(server.db, 'Somfit', 2, 'available');
      const kits = (await server.db('kits').where({ type: 'Somfit', status: 'available' }).select('id')).map(
        (kit) => ({ id: Number(kit.id) }),
      );
      const patient = await insertPatient(server.db);
      const startDate = wednesdayAhead(11);
      // Another session holds every free kit of the type...
      const other = await server.db.transaction();
      try {
        await other.raw('SELECT id FROM kits WHERE id = ANY(?) FOR NO KEY UPDATE', [
          kits.map((kit) => kit.id),
        ]);
        const request = (agents[0] as Agent).request<BookingListItem>('POST', '/api/bookings', {
          body: { patientId: patient.id, kitType: 'Somfit', startDate },
        });
        // ...the booking waits for one of them, holding its duplicate lock...
        await expect
          .poll(async () => {
            const { rows } = await server.db.raw(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%kits%'",
            );
            return (rows as { n: number }[])[0]?.n;
          })
          .toBe(1);
        // ...and the other session then asks for that lock: each waits for the other. PostgreSQL
        // ends the booking's attempt first (it waited first), which runs again and waits anew;
        // then it ends the other session.
        const key = `wellrest:booking:${patient.id}:Somfit:${startDate}`;
        await expect(other.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [key])).rejects.toMatchObject({
          code: '40P01',
        });
        await other.rollback().catch(() => undefined);
        const answer = await request;
        expect(answer.status).toBe(201);
        expect(kits.map((kit) => kit.id)).toContain(answer.body.kitId);
      } finally {
        if (!other.isCompleted()) await other.rollback().catch(() => undefined);
      }
    },
  );

  it('two simultaneous extensions competing for one spare kit: one succeeds, one is refused', async () => {
    const [a, b, spare] = await insertKits(server.db, 'Z-Machine', 3);
    const patient = await insertPatient(server.db);
    const monday = addDays(wednesdayAhead(2), -2);
    const first = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: a?.id ?? null,
      kitType: 'Z-Machine',
      startDate: monday,
    });
    const second = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: b?.id ?? null,
      kitType: 'Z-Machine',
      startDate: monday,
    });
    // Both own kits go out again on Thursday, so each extension needs the spare kit.
    const thursday = addDays(monday, 3);
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: a?.id ?? null,
      kitType: 'Z-Machine',
      startDate: thursday,
    });
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: b?.id ?? null,
      kitType: 'Z-Machine',
      startDate: thursday,
    });

    const [one, two] = await Promise.all([
      (agents[0] as Agent).request('POST', `/api/bookings/${first}/extend`),
      (agents[1] as Agent).request('POST', `/api/bookings/${second}/extend`),
    ]);
    expect([one?.status, two?.status].sort()).toEqual([200, 409]);
    const refused = one?.status === 409 ? one : two;
    expect(refused?.body.error).toBe(messages.extension.noKitAvailable('Z-Machine'));
    const onSpare = await server.db('bookings').where({ kit_id: spare?.id });
    expect(onSpare).toHaveLength(1);
    expect(onSpare[0]).toMatchObject({ test_type: '3-day' });
    const stillTwoDay = await server
      .db('bookings')
      .whereIn('id', [first, second])
      .where({ test_type: '2-day' });
    expect(stillTwoDay).toHaveLength(1);
  });
});
