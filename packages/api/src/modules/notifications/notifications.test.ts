import { addDays, messagingMessages } from '@wellrest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanOverdueReturns } from '../../jobs/overdue.js';
import {
  insertBooking,
  insertKits,
  insertPatient,
  practiceTodayForTests,
} from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { notify } from './store.js';

interface Inbox {
  items: { id: number; title: string; read: boolean; link: string | null }[];
  unread: number;
}

describe('notifications', () => {
  let server: TestServer;
  let scheduler: Agent;
  let otherScheduler: Agent;
  let staff: Agent;

  beforeAll(async () => {
    server = await getTestServer();
    scheduler = await server.loginAs('scheduler');
    otherScheduler = await server.loginAs('scheduler');
    staff = await server.loginAs('staff');
  });
  afterAll(() => server.close());

  it('shows a user only their own notifications and their role’s, with read state per user', async () => {
    const own = await notify(server.db, {
      userId: scheduler.user.id,
      kind: 'test',
      title: 'For you',
      link: '/bookings',
    });
    await notify(server.db, {
      userId: otherScheduler.user.id,
      kind: 'test',
      title: 'For the other scheduler',
    });
    const role = await notify(server.db, { role: 'scheduler', kind: 'test', title: 'For schedulers' });
    await notify(server.db, { role: 'staff', kind: 'test', title: 'For staff' });

    const mine = await scheduler.request<Inbox>('GET', '/api/notifications');
    expect(mine.body.items.map((n) => n.title)).toEqual(['For schedulers', 'For you']);
    expect(mine.body.unread).toBe(2);
    const theirs = await staff.request<Inbox>('GET', '/api/notifications');
    expect(theirs.body.items.map((n) => n.title)).toEqual(['For staff']);

    // Another user's notification cannot be read or marked.
    expect((await staff.request('POST', `/api/notifications/${own}/read`)).status).toBe(404);
    const read = await scheduler.request<{ unread: number }>('POST', `/api/notifications/${role}/read`);
    expect(read.body.unread).toBe(1);
    // Reading a role notification marks it for this user only.
    expect(
      (await otherScheduler.request<{ unread: number }>('GET', '/api/notifications/unread-count')).body
        .unread,
    ).toBe(2);
    await scheduler.request('POST', '/api/notifications/read-all');
    const after = await scheduler.request<Inbox>('GET', '/api/notifications');
    expect(after.body.unread).toBe(0);
    expect(after.body.items.every((n) => n.read)).toBe(true);
    expect((await server.request('GET', '/api/notifications')).status).toBe(401);
    expect((await scheduler.request('POST', '/api/notifications/abc/read')).status).toBe(400);
  });

  it('the overdue-return scan notifies schedulers and records one event per overdue booking', async () => {
    const today = practiceTodayForTests();
    const [kit] = await insertKits(server.db, 'Somfit', 1, 'in_use');
    const patient = await insertPatient(server.db);
    const overdue = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: addDays(today, -10),
      status: 'picked_up',
    });
    await insertBooking(server.db, {
      patientId: patient.id,
      kitId: null,
      kitType: 'Somfit',
      startDate: addDays(today, -10),
      status: 'completed',
    });
    const result = await scanOverdueReturns(server.db, server.config.practiceTimeZone);
    expect(result.overdue).toBe(1);
    const events = await server.db('outbox_events').where({ topic: 'booking.return_overdue' });
    expect(events.map((e) => e.payload.bookingId)).toEqual([overdue]);
    const inbox = await otherScheduler.request<Inbox>('GET', '/api/notifications');
    expect(inbox.body.items[0]).toMatchObject({
      title: messagingMessages.notifications.overdueReturns(1),
      link: '/bookings',
      read: false,
    });
    expect(
      (await staff.request<Inbox>('GET', '/api/notifications')).body.items.map((n) => n.title),
    ).not.toContain(messagingMessages.notifications.overdueReturns(1));
  });
});
