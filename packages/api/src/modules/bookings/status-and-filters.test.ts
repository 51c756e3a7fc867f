import {
  addDays,
  type BookingEvent,
  type BookingListItem,
  type ExtensionEligibility,
  inventoryMessages,
  messages,
  operationMessages,
  type Page,
} from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
  wednesdayAhead,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { UNPAGED_BOOKINGS_MAX } from './store.js';

// The bookings screens' calls: filters and paging, the manual status changes with what they do
// to the kit, and the cleaning gate on extensions. Through HTTP, against a real database.

type Detail = BookingListItem & {
  error?: string;
  agreementStatus: string;
  agreement: { status: string; sentAt: string | null; signedAt: string | null };
  events: BookingEvent[];
};

describe('bookings screens API', () => {
  let server: TestServer;
  let scheduler: Agent;
  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
  });
  afterAll(() => server.close());

  const kitRow = (id: number) =>
    server.db('kits').where({ id }).first('status', 'cleaning_since', 'cleaning_due_on') as Promise<{
      status: string;
      cleaning_since: string | null;
      cleaning_due_on: string | null;
    }>;

  const setStatus = (id: number, status: string, reason?: string) =>
    scheduler.request<Detail>('POST', `/api/bookings/${id}/status`, { body: { status, reason } });

  it('filters by several statuses, kit type, window and patient, page by page with a total', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('scheduler');
      const somfit = await insertKits(local.db, 'Somfit', 4);
      const [zm] = await insertKits(local.db, 'Z-Machine', 1);
      const ada = await insertPatient(local.db, { name: 'Ada Filter' });
      const ben = await insertPatient(local.db, { name: 'Ben Filter' });
      const week = wednesdayAhead(2);
      const pending = await insertBooking(local.db, {
        patientId: ada.id,
        kitId: somfit[0]?.id ?? null,
        kitType: 'Somfit',
        startDate: week,
        status: 'pending',
      });
      const confirmed = await insertBooking(local.db, {
        patientId: ben.id,
        kitId: somfit[1]?.id ?? null,
        kitType: 'Somfit',
        startDate: week,
      });
      const cancelled = await insertBooking(local.db, {
        patientId: ada.id,
        kitId: somfit[2]?.id ?? null,
        kitType: 'Somfit',
        startDate: addDays(week, 7),
        status: 'cancelled',
      });
      const machine = await insertBooking(local.db, {
        patientId: ben.id,
        kitId: zm?.id ?? null,
        kitType: 'Z-Machine',
        startDate: week,
      });

      const ids = async (query: string) =>
        (await agent.request<Page<BookingListItem>>('GET', `/api/bookings?page=1&${query}`)).body.items.map(
          (b) => b.id,
        );
      expect(await ids('status=pending&status=confirmed')).toEqual([pending, confirmed, machine]);
      expect(await ids('status=pending,cancelled')).toEqual([pending, cancelled]);
      expect(await ids('status=confirmed&kitType=Z-Machine')).toEqual([machine]);
      expect(await ids(`patientId=${ada.id}`)).toEqual([pending, cancelled]);
      expect(await ids(`from=${addDays(week, 7)}&to=${addDays(week, 7)}`)).toEqual([cancelled]);

      const first = await agent.request<Page<BookingListItem>>('GET', '/api/bookings?page=1&pageSize=3');
      expect(first.body).toMatchObject({ total: 4, page: 1, pageSize: 3 });
      expect(first.body.items).toHaveLength(3);
      const second = await agent.request<Page<BookingListItem>>('GET', '/api/bookings?page=2&pageSize=3');
      expect(second.body.items.map((b) => b.id)).toEqual([cancelled]);

      const bad = await agent.request('GET', '/api/bookings?status=confirmed,lost&kitType=Nope&page=0');
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields as object).sort()).toEqual(['kitType', 'page', 'status']);
    } finally {
      await local.close();
    }
  });

  it('answers an unpaged list with at most the cap, and says when it cut the list', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('scheduler');
      const patient = await insertPatient(local.db);
      const start = wednesdayAhead(0);
      const rows = Array.from({ length: UNPAGED_BOOKINGS_MAX + 5 }, (_, i) => ({
        patient_id: patient.id,
        kit_id: null,
        kit_type: 'Somfit',
        test_type: '2-day',
        status: 'cancelled',
        start_date: addDays(start, i % 60),
        end_date: addDays(start, (i % 60) + 1),
        return_date: addDays(start, (i % 60) + 2),
      }));
      for (let i = 0; i < rows.length; i += 500) await local.db('bookings').insert(rows.slice(i, i + 500));

      const unpaged = await agent.request<BookingListItem[]>('GET', '/api/bookings');
      expect(unpaged.status).toBe(200);
      expect(unpaged.body).toHaveLength(UNPAGED_BOOKINGS_MAX);
      expect(unpaged.headers.get('x-result-truncated')).toBe('true');
      expect(unpaged.headers.get('x-result-limit')).toBe(String(UNPAGED_BOOKINGS_MAX));

      // A window within the cap answers whole, without the flag.
      const week = await agent.request<BookingListItem[]>(
        'GET',
        `/api/bookings?from=${start}&to=${addDays(start, 1)}`,
      );
      expect(week.body.length).toBeGreaterThan(0);
      expect(week.body.length).toBeLessThan(UNPAGED_BOOKINGS_MAX);
      expect(week.headers.get('x-result-truncated')).toBeNull();

      const paged = await agent.request<Page<BookingListItem>>('GET', '/api/bookings?page=2&pageSize=200');
      expect(paged.body).toMatchObject({ total: UNPAGED_BOOKINGS_MAX + 5, page: 2 });
      expect(paged.body.items).toHaveLength(200);
    } finally {
      await local.close();
    }
  });

  it('moves the kit with the booking: out when picked up, into cleaning when returned', async () => {
    const [kit] = await insertKits(server.db, 'SleepView', 1);
    const patient = await insertPatient(server.db);
    const startDate = wednesdayAhead(5);
    const id = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'SleepView',
      startDate,
      status: 'pending',
    });
    const kitId = kit?.id as number;

    // Illegal moves are refused with the rule's message and change nothing.
    const early = await setStatus(id, 'completed');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      error: operationMessages.invalidStatusChange('pending', 'completed'),
    });
    expect((await kitRow(kitId)).status).toBe('available');

    expect((await setStatus(id, 'confirmed')).status).toBe(200);
    expect((await kitRow(kitId)).status).toBe('available');
    const pickedUp = await setStatus(id, 'picked_up');
    expect(pickedUp.status).toBe(200);
    expect(pickedUp.body.status).toBe('picked_up');
    expect((await kitRow(kitId)).status).toBe('in_use');

    const cancel = await setStatus(id, 'cancelled', 'Too late');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe(operationMessages.invalidStatusChange('picked_up', 'cancelled'));

    const completed = await setStatus(id, 'completed');
    expect(completed.status).toBe(200);
    const returned = await kitRow(kitId);
    expect(returned.status).toBe('cleaning');
    expect(returned.cleaning_since).toBe(practiceTodayForTests());
    // Back before its planned end: the cleaning is due the day after it came back, not after the plan.
    expect(returned.cleaning_due_on).toBe(addDays(practiceTodayForTests(), 1));

    const detail = await scheduler.request<Detail>('GET', `/api/bookings/${id}`);
    expect(detail.body.events.map((e) => `${e.fromStatus}->${e.toStatus}`)).toEqual([
      'pending->confirmed',
      'confirmed->picked_up',
      'picked_up->completed',
    ]);
    expect(detail.body.events[1]).toMatchObject({
      actorUsername: scheduler.user.username,
      details: { kitId },
    });
  });

  it('will not hand out a kit waiting for its cleaning or in maintenance', async () => {
    const [dirty] = await insertKits(server.db, 'Somfit', 1, 'cleaning');
    const [broken] = await insertKits(server.db, 'Somfit', 1, 'maintenance');
    const patient = await insertPatient(server.db);
    for (const [kit, message] of [
      [dirty, inventoryMessages.kitNeedsCleaning(dirty?.kitId ?? '')],
      [broken, inventoryMessages.kitOutOfService(broken?.kitId ?? '', 'maintenance')],
    ] as const) {
      const id = await insertBooking(server.db, {
        patientId: patient.id,
        kitId: kit?.id ?? null,
        kitType: 'Somfit',
        startDate: wednesdayAhead(6),
      });
      const refused = await setStatus(id, 'picked_up');
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(message);
      const row = await server.db('bookings').where({ id }).first('status');
      expect(row?.status).toBe('confirmed');
    }
  });

  it('cancels only with a reason, and keeps the reason in the history', async () => {
    const [kit] = await insertKits(server.db, 'Z-Machine', 1);
    const patient = await insertPatient(server.db);
    const id = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Z-Machine',
      startDate: wednesdayAhead(7),
    });
    const noReason = await setStatus(id, 'cancelled', '   ');
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({
      error: inventoryMessages.cancelReasonRequired,
      fields: { reason: inventoryMessages.cancelReasonRequired },
    });

    const cancelled = await setStatus(id, 'cancelled', 'Patient moved away');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const history = await scheduler.request<BookingEvent[]>('GET', `/api/bookings/${id}/events`);
    expect(history.body.at(-1)).toMatchObject({
      action: 'status_changed',
      fromStatus: 'confirmed',
      toStatus: 'cancelled',
      reason: 'Patient moved away',
      actorUsername: scheduler.user.username,
    });
    // Cancelling leaves the kit on the shelf.
    expect((await kitRow(kit?.id as number)).status).toBe('available');
  });

  it('an extension that swaps kits skips a kit that will not be clean in time', async () => {
    const local = await getTestServer();
    try {
      const agent = await local.loginAs('scheduler');
      const [own, dirty, clean] = await insertKits(local.db, 'SleepView', 3);
      const patient = await insertPatient(local.db);
      const startDate = wednesdayAhead(3);
      const id = await insertBooking(local.db, {
        patientId: patient.id,
        kitId: own?.id ?? null,
        kitType: 'SleepView',
        startDate,
      });
      // The booking's own kit is taken from the third day on: an extension must move.
      await insertBooking(local.db, {
        patientId: patient.id,
        kitId: own?.id ?? null,
        kitType: 'SleepView',
        startDate: addDays(startDate, 3),
      });
      // The lowest free kit is back from a test and is only due to be cleaned after the start.
      await local
        .db('kits')
        .where({ id: dirty?.id })
        .update({
          status: 'cleaning',
          cleaning_since: practiceTodayForTests(),
          cleaning_due_on: addDays(startDate, 1),
        });

      const check = () =>
        agent.request<ExtensionEligibility>('GET', `/api/bookings/${id}/extension-eligibility`);
      // With the clean kit in maintenance, the only free kit is the one awaiting cleaning: no extension.
      await local.db('kits').where({ id: clean?.id }).update({ status: 'maintenance' });
      expect((await check()).body).toMatchObject({
        canExtend: false,
        reason: messages.extension.noKitAvailable('SleepView'),
      });
      const refused = await agent.request('POST', `/api/bookings/${id}/extend`);
      expect(refused.status).toBe(409);

      await local.db('kits').where({ id: clean?.id }).update({ status: 'available' });
      expect((await check()).body).toMatchObject({
        canExtend: true,
        requiresKitSwap: true,
        targetKitId: clean?.id,
        swapWarning: messages.extension.swapWarning(own?.kitId ?? '', clean?.kitId ?? ''),
      });
      const extended = await agent.request<BookingListItem>('POST', `/api/bookings/${id}/extend`);
      expect(extended.status).toBe(200);
      expect(extended.body).toMatchObject({ testType: '3-day', kitId: clean?.id });
    } finally {
      await local.close();
    }
  });

  it('shows where the agreement stands on the list and the detail', async () => {
    const [kit] = await insertKits(server.db, 'Somfit', 1);
    const patient = await insertPatient(server.db);
    const id = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: wednesdayAhead(8),
    });
    const before = await scheduler.request<Detail>('GET', `/api/bookings/${id}`);
    expect(before.body.agreementStatus).toBe('none');
    expect(before.body.agreement).toEqual({ status: 'none', sentAt: null, signedAt: null });

    expect((await scheduler.request('POST', `/api/bookings/${id}/initiate-agreement`)).status).toBe(200);
    const sent = await scheduler.request<Detail>('GET', `/api/bookings/${id}`);
    expect(sent.body.agreement.status).toBe('sent');
    expect(sent.body.agreement.sentAt).not.toBeNull();

    await server
      .db('agreements')
      .where({ booking_id: id })
      .update({ status: 'signed', signed_at: new Date() });
    const list = await scheduler.request<Page<Detail>>('GET', `/api/bookings?page=1&patientId=${patient.id}`);
    expect(list.body.items[0]?.agreementStatus).toBe('signed');
  });
});
