import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addDays,
  type BookingListItem,
  LIBRARY_WORKFLOWS,
  maskRecipient,
  pickupInstant,
  rulesToLogic,
  todayInTimeZone,
  type WorkflowDetail,
  type WorkflowListItem,
  type WorkflowRunDetail,
  type WorkflowRunListItem,
  workflowMessages as wm,
  zonedInstant,
} from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../../db/seed/demo.js';
import { writeOutbox } from '../../jobs/outbox.js';
import { scanSlaClocks } from '../../jobs/sla-alerts.js';
import { insertBooking, insertKits, insertPatient, wednesdayAhead } from '../../test/operations-fixtures.js';
import { type Agent, getTestServer, type TestServer } from '../../test/server.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/smtp-fake.js';
import { WORKFLOW_EVENT_QUEUE } from './engine.js';

// Workflows through the HTTP API on a real database: triggers from committed changes (never from a
// rolled-back one), conditions, every action, waits on a clock the test moves, versions, the loop
// guard, time-based triggers and schedules, the library, and bad input refused at its node.

const TZ = 'America/New_York';

type Node = Record<string, unknown>;
const trigger = (t: Record<string, unknown>, id = 't'): Node => ({ id, type: 'trigger', trigger: t });
const action = (id: string, a: Record<string, unknown>): Node => ({ id, type: 'action', action: a });
const notifyNode = (id: string, title: string, extra: Record<string, unknown> = {}) =>
  action(id, { kind: 'notify', to: 'role', role: 'scheduler', title, ...extra });
const edge = (source: string, target: string, sourceHandle: 'yes' | 'no' | null = null) => ({
  id: `${source}-${target}-${sourceHandle ?? 'n'}`,
  source,
  target,
  sourceHandle,
});
const line = (...nodes: Node[]) => ({
  nodes,
  edges: nodes.slice(1).map((node, i) => edge(nodes[i]?.id as string, node.id as string)),
});

describe('workflows', () => {
  let server: TestServer;
  let admin: Agent;
  let clock: Date;
  let smtp: FakeSmtp | undefined;
  const logLines: string[] = [];

  beforeEach(async () => {
    clock = new Date();
    logLines.length = 0;
    server = await getTestServer({
      logLines,
      jobs: { start: true, workflows: { clock: () => clock, stepRetryDelay: 1 } },
    });
    admin = await server.loginAs('admin');
  });
  afterEach(async () => {
    await server.close();
    await smtp?.close();
    smtp = undefined;
  });

  async function createWorkflow(name: string, graph: unknown, enable = true): Promise<WorkflowDetail> {
    const created = await admin.request<WorkflowDetail>('POST', '/api/workflows', { body: { name, graph } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (!enable) return created.body;
    const enabled = await admin.request<WorkflowDetail>('POST', `/api/workflows/${created.body.id}/enable`);
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.status).toBe('enabled');
    return enabled.body;
  }

  async function runsOf(id: number): Promise<WorkflowRunListItem[]> {
    const response = await admin.request<{ runs: WorkflowRunListItem[] }>('GET', `/api/workflows/${id}/runs`);
    expect(response.status).toBe(200);
    return response.body.runs;
  }

  async function until<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    timeoutMs = 20_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  const settled = (runs: WorkflowRunListItem[]) => runs.every((r) => !['running'].includes(r.status));
  const runsSettled = (id: number, count: number) =>
    until(
      () => runsOf(id),
      (runs) => runs.length >= count && settled(runs),
    );

  async function runDetail(id: number): Promise<WorkflowRunDetail> {
    const response = await admin.request<WorkflowRunDetail>('GET', `/api/workflow-runs/${id}`);
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Waits until the outbox has handed everything to the queues and the event jobs are done. */
  async function drained(): Promise<void> {
    await until(
      async () => {
        const pending = await server.db('outbox_events').whereNull('dispatched_at').count({ n: '*' });
        const jobs = await server.db
          .withSchema('pgboss')
          .from('job')
          .whereIn('name', [WORKFLOW_EVENT_QUEUE, 'workflow-step'])
          .whereIn('state', ['created', 'retry', 'active'])
          .where('start_after', '<=', server.db.fn.now())
          .count({ n: '*' });
        return Number(pending[0]?.n) + Number(jobs[0]?.n);
      },
      (n) => n === 0,
    );
  }

  async function bookingFor(
    kitType: 'Somfit' | 'SleepView' | 'Z-Machine',
    extra: Record<string, unknown> = {},
  ) {
    const patient = await insertPatient(server.db, { name: 'Jordan Rivera', email: 'jordan@example.test' });
    const created = await admin.request<BookingListItem>('POST', '/api/bookings', {
      body: { patientId: patient.id, testType: '2-day', kitType, startDate: wednesdayAhead(0), ...extra },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }

  async function notificationsTitled(title: string): Promise<number> {
    return Number((await server.db('notifications').where({ title }).count({ n: '*' }))[0]?.n);
  }

  it('starts each trigger once per committed change, never for a rolled-back one', async () => {
    await insertKits(server.db, 'Somfit', 3);
    const kinds = [
      'booking.created',
      'booking.status_changed',
      'booking.extended',
      'booking.reduced',
      'patient.created',
      'referral.created',
      'referral.status_changed',
      'kit.needs_cleaning',
    ];
    const ids: Record<string, number> = {};
    for (const kind of kinds)
      ids[kind] = (await createWorkflow(kind, line(trigger({ kind }), notifyNode('n', `${kind} fired`)))).id;

    // A failure after the outbox row is written rolls the whole request back: no event, no run.
    await server.db.raw(`
      CREATE FUNCTION fail_three_day_booking() RETURNS trigger AS $$
      BEGIN
        IF NEW.action = 'created' AND NEW.details->>'testType' = '3-day' THEN
          RAISE EXCEPTION 'simulated failure after the change';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await server.db.raw(
      'CREATE TRIGGER fail_three_day_booking BEFORE INSERT ON booking_events FOR EACH ROW EXECUTE FUNCTION fail_three_day_booking()',
    );
    const patient = await insertPatient(server.db);
    const failed = await admin.request('POST', '/api/bookings', {
      body: { patientId: patient.id, testType: '3-day', kitType: 'Somfit', startDate: wednesdayAhead(1) },
    });
    expect(failed.status).toBe(500);
    await server.db.raw('DROP TRIGGER fail_three_day_booking ON booking_events');

    // Committed changes: create, extend, reduce, pick up, complete (the kit then needs cleaning).
    const booking = await bookingFor('Somfit');
    expect((await admin.request('POST', `/api/bookings/${booking.id}/extend`)).status).toBe(200);
    expect((await admin.request('POST', `/api/bookings/${booking.id}/reduce`)).status).toBe(200);
    for (const status of ['picked_up', 'completed'])
      expect(
        (await admin.request('POST', `/api/bookings/${booking.id}/status`, { body: { status } })).status,
      ).toBe(200);
    const newPatient = await admin.request<{ id: number }>('POST', '/api/patients', {
      body: { name: 'Casey Example', email: 'casey@example.test', phone: '555-0142' },
    });
    expect(newPatient.status).toBe(201);
    const referral = await admin.request<{ id: number }>('POST', '/api/referrals', {
      body: {
        patientId: newPatient.body.id,
        physicianId: (
          await server.db('physicians').insert({ name: 'Dr. Avery Chen', npi: '1234567893' }).returning('id')
        )[0].id,
        reason: 'Loud snoring and daytime sleepiness',
        urgency: 'routine',
      },
    });
    expect(referral.status, JSON.stringify(referral.body)).toBe(201);
    expect(
      (
        await admin.request('POST', `/api/referrals/${referral.body.id}/status`, {
          body: { status: 'contacted' },
        })
      ).status,
    ).toBe(200);

    await drained();
    const expected: Record<string, number> = {
      'booking.created': 1,
      'booking.status_changed': 2,
      'booking.extended': 1,
      'booking.reduced': 1,
      // jordan (fixture, not through the domain) is not counted; Casey is.
      'patient.created': 1,
      'referral.created': 1,
      'referral.status_changed': 1,
      'kit.needs_cleaning': 1,
    };
    for (const kind of kinds) {
      const runs = await runsSettled(ids[kind] as number, expected[kind] as number);
      expect(runs.length, kind).toBe(expected[kind]);
      expect(
        runs.every((r) => r.status === 'completed'),
        kind,
      ).toBe(true);
      expect(await notificationsTitled(`${kind} fired`), kind).toBe(expected[kind]);
    }
    const created = await runsOf(ids['booking.created'] as number);
    expect(created[0]?.record).toEqual({ type: 'booking', id: booking.id });

    // The same event handed over again (a redelivered job) starts nothing new.
    const event = await server.db('outbox_events').where({ topic: 'booking.created' }).orderBy('id').first();
    await server.jobs.send(WORKFLOW_EVENT_QUEUE, {
      eventId: event.id,
      topic: event.topic,
      payload: event.payload,
    });
    await drained();
    expect(await runsOf(ids['booking.created'] as number)).toHaveLength(1);

    // An event written in a transaction that rolls back never reaches a workflow.
    await server.db
      .transaction(async (trx) => {
        await writeOutbox(trx, 'booking.created', { bookingId: booking.id });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await drained();
    expect(await runsOf(ids['booking.created'] as number)).toHaveLength(1);
  });

  it('follows the Yes or No branch of a condition on the trigger’s fields', async () => {
    await insertKits(server.db, 'Somfit', 1);
    await insertKits(server.db, 'SleepView', 1);
    const workflow = await createWorkflow('Somfit only', {
      nodes: [
        trigger({ kind: 'booking.created' }),
        {
          id: 'c',
          type: 'condition',
          logic: rulesToLogic({
            match: 'all',
            rules: [
              { field: 'kit.type', operator: 'equals', value: 'Somfit' },
              { field: 'booking.testType', operator: 'in', value: ['2-day'] },
            ],
          }),
        },
        notifyNode('yes', 'Somfit booking {{ booking.id }}'),
        notifyNode('no', 'Other kit'),
      ],
      edges: [edge('t', 'c'), edge('c', 'yes', 'yes'), edge('c', 'no', 'no')],
    });
    const somfit = await bookingFor('Somfit');
    await bookingFor('SleepView');
    const runs = await runsSettled(workflow.id, 2);
    const decisions = await Promise.all(runs.map((r) => runDetail(r.id)));
    const byRecord = new Map(decisions.map((d) => [d.record?.id, d]));
    const yes = byRecord.get(somfit.id);
    expect(yes?.steps.map((s) => [s.nodeId, s.status, s.output])).toEqual([
      ['c', 'completed', { decision: 'yes' }],
      ['yes', 'completed', expect.objectContaining({ title: `Somfit booking ${somfit.id}` })],
    ]);
    const no = decisions.find((d) => d.record?.id !== somfit.id);
    expect(no?.steps.map((s) => [s.nodeId, s.output?.decision ?? null])).toEqual([
      ['c', 'no'],
      ['no', null],
    ]);
  });

  it('performs every action: email, SMS, notification, note, signed webhook, status changes', async () => {
    smtp = await startFakeSmtp();
    expect(
      (
        await admin.request('PATCH', '/api/messaging/settings', {
          body: {
            smtpHost: smtp.host,
            smtpPort: smtp.port,
            smtpSecure: false,
            smtpUser: smtp.user,
            smtpPassword: smtp.password,
            smtpCaPem: smtp.cert,
            fromAddress: 'care@wellrest.example',
          },
        })
      ).status,
    ).toBe(200);
    const hooks: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks/wellrest`;
    const template = async (key: string) =>
      Number((await server.db('message_templates').where({ key }).first('id')).id);
    const staffer = await server.createUser({ role: 'scheduler' });
    try {
      await insertKits(server.db, 'Somfit', 1);
      const workflow = await createWorkflow(
        'Everything',
        line(
          trigger({ kind: 'booking.created' }),
          action('email', {
            kind: 'send_email',
            templateId: await template('pickup-reminder-email'),
            to: 'patient',
          }),
          action('sms', { kind: 'send_sms', templateId: await template('pickup-reminder'), to: 'patient' }),
          action('tell', {
            kind: 'notify',
            to: 'user',
            userId: staffer.id,
            role: null,
            title: 'Prepare kit {{ kit.id }}',
            body: 'Pickup on {{ booking.startDate }}',
          }),
          action('note', { kind: 'add_note', text: 'Reminder sent for {{ booking.startDate }}' }),
          action('hook', { kind: 'webhook', url: hookUrl }),
          action('status', { kind: 'set_booking_status', status: 'picked_up' }),
        ),
      );
      const booking = await bookingFor('Somfit');
      const [run] = await until(
        () => runsOf(workflow.id),
        (runs) => runs[0]?.status === 'completed' || runs[0]?.status === 'failed',
      );
      const detail = await runDetail(run?.id as number);
      expect(detail.status, JSON.stringify(detail.steps)).toBe('completed');
      expect(detail.steps.map((s) => s.nodeId)).toEqual(['email', 'sms', 'tell', 'note', 'hook', 'status']);
      expect(detail.steps.every((s) => s.attempts === 1 && s.startedAt && s.finishedAt)).toBe(true);

      const mail = await until(
        async () => smtp?.received ?? [],
        (received) => received.length > 0,
      );
      expect(mail).toHaveLength(1);
      expect(mail[0]?.to).toEqual(['jordan@example.test']);
      expect(mail[0]?.parsed.subject).toBe(`Your sleep test kit is ready for pickup on ${booking.startDate}`);
      expect(mail[0]?.parsed.text).toContain('Hi Jordan,');
      const sms = await server.db('deliveries').where({ channel: 'sms' }).first();
      expect(sms.idempotency_key).toBe(`workflow-run:${detail.id}:sms`);
      expect(sms.content.body).toContain(`on ${booking.startDate}`);

      const staffAgent = await server.loginAs(staffer.username);
      const inbox = await staffAgent.request<{ items: { title: string; link: string }[] }>(
        'GET',
        '/api/notifications',
      );
      expect(inbox.body.items[0]).toMatchObject({
        title: `Prepare kit ${booking.kitLabel}`,
        link: `/bookings-management?booking=${booking.id}`,
      });

      const after = await server.db('bookings').where({ id: booking.id }).first('status', 'notes');
      expect(after.status).toBe('picked_up');
      expect(after.notes).toContain(`Everything: Reminder sent for ${booking.startDate}`);
      // The status change went through the booking rules: history line, and the kit went out.
      const history = await server
        .db('booking_events')
        .where({ booking_id: booking.id, action: 'status_changed' });
      expect(history.map((h) => h.to_status)).toEqual(['picked_up']);

      expect(hooks).toHaveLength(1);
      const hook = hooks[0] as (typeof hooks)[number];
      const timestamp = hook.headers['x-wellrest-timestamp'] as string;
      const expectedSignature = createHmac('sha256', workflow.webhookSecret)
        .update(`${timestamp}.${hook.body}`)
        .digest('hex');
      expect(hook.headers['x-wellrest-signature']).toBe(`sha256=${expectedSignature}`);
      expect(hook.headers['x-wellrest-delivery']).toBe(`workflow-run:${detail.id}:hook`);
      const payload = JSON.parse(hook.body);
      expect(payload).toMatchObject({
        event: 'booking.created',
        record: { type: 'booking', id: booking.id },
      });
      expect(hook.body).not.toContain('Jordan');
      const logged = await server
        .db('webhook_deliveries')
        .where({ direction: 'outbound', source: 'workflow' });
      expect(logged.map((l) => l.status)).toEqual(['processed']);

      // A referral's status changes through the referral rules.
      const referralFlow = await createWorkflow(
        'Contact new referrals',
        line(
          trigger({ kind: 'referral.created' }),
          action('contact', { kind: 'set_referral_status', status: 'contacted' }),
        ),
      );
      const [physician] = await server
        .db('physicians')
        .insert({ name: 'Dr. Avery Chen', npi: '1234567893' })
        .returning('id');
      const referral = await admin.request<{ id: number }>('POST', '/api/referrals', {
        body: {
          newPatient: { name: 'Robin Example', email: 'robin@example.test', phone: '555-0101' },
          physicianId: physician.id,
          reason: 'Loud snoring and daytime sleepiness',
          urgency: 'urgent',
        },
      });
      expect(referral.status).toBe(201);
      await until(
        () => runsOf(referralFlow.id),
        (runs) => runs[0]?.status === 'completed',
      );
      expect((await server.db('referrals').where({ id: referral.body.id }).first('status')).status).toBe(
        'contacted',
      );
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('waits on the engine’s clock: a wait is a delayed step, resumed when due', async () => {
    await insertKits(server.db, 'Somfit', 1);
    const workflow = await createWorkflow(
      'Follow up',
      line(
        trigger({ kind: 'booking.created' }),
        { id: 'wait', type: 'wait', wait: { mode: 'duration', days: 2, hours: 0, minutes: 0 } },
        notifyNode('later', 'Two days later'),
      ),
    );
    await bookingFor('Somfit');
    const [run] = await until(
      () => runsOf(workflow.id),
      (runs) => runs[0]?.status === 'waiting',
    );
    expect(run?.status).toBe('waiting');
    const waiting = await runDetail(run?.id as number);
    const due = new Date(clock.getTime() + 2 * 86_400_000);
    expect(waiting.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ['wait', 'waiting'],
      ['later', 'pending'],
    ]);
    expect(new Date(waiting.steps[1]?.runAfter as string).getTime()).toBeCloseTo(due.getTime(), -4);

    // Not due yet: the scan leaves it waiting.
    clock = new Date(due.getTime() - 60_000);
    expect((await server.workflows.scan()).resumed).toBe(0);
    expect(await notificationsTitled('Two days later')).toBe(0);

    clock = new Date(due.getTime() + 1000);
    expect((await server.workflows.scan()).resumed).toBe(1);
    const [done] = await until(
      () => runsOf(workflow.id),
      (runs) => runs[0]?.status === 'completed',
    );
    expect(done?.status).toBe('completed');
    expect(await notificationsTitled('Two days later')).toBe(1);
    const finished = await runDetail(run?.id as number);
    expect(finished.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
  });

  it('keeps each run on the version it started with', async () => {
    await insertKits(server.db, 'Somfit', 2);
    const graph = (title: string) =>
      line(
        trigger({ kind: 'booking.created' }),
        { id: 'wait', type: 'wait', wait: { mode: 'duration', days: 0, hours: 1, minutes: 0 } },
        notifyNode('n', title),
      );
    const workflow = await createWorkflow('Versioned', graph('From version one'));
    expect(workflow.version).toBe(1);
    await bookingFor('Somfit');
    await until(
      () => runsOf(workflow.id),
      (runs) => runs[0]?.status === 'waiting',
    );

    const saved = await admin.request<WorkflowDetail>('PUT', `/api/workflows/${workflow.id}`, {
      body: { name: 'Versioned', graph: graph('From version two') },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ version: 1, hasUnpublishedChanges: true, status: 'enabled' });
    const published = await admin.request<WorkflowDetail>('POST', `/api/workflows/${workflow.id}/enable`);
    expect(published.body).toMatchObject({ version: 2, hasUnpublishedChanges: false });
    await bookingFor('Somfit');
    const runs = await until(
      () => runsOf(workflow.id),
      (list) => list.length === 2 && list.every((r) => r.status === 'waiting'),
    );
    expect(runs.map((r) => r.version).sort()).toEqual([1, 2]);

    clock = new Date(clock.getTime() + 3_700_000);
    await server.workflows.scan();
    await until(
      () => runsOf(workflow.id),
      (list) => list.every((r) => r.status === 'completed'),
    );
    expect(await notificationsTitled('From version one')).toBe(1);
    expect(await notificationsTitled('From version two')).toBe(1);
    const versions = await admin.request<{ versions: { version: number }[] }>(
      'GET',
      `/api/workflows/${workflow.id}/versions`,
    );
    expect(versions.body.versions.map((v) => v.version)).toEqual([2, 1]);
  });

  it('stops a workflow its own action re-triggers for the same record within a minute', async () => {
    await insertKits(server.db, 'Somfit', 1);
    const workflow = await createWorkflow(
      'Hand out on confirm',
      line(
        trigger({ kind: 'booking.status_changed', from: null, to: null }),
        action('out', { kind: 'set_booking_status', status: 'picked_up' }),
      ),
    );
    const booking = await bookingFor('Somfit', { status: 'pending' });
    expect(
      (await admin.request('POST', `/api/bookings/${booking.id}/status`, { body: { status: 'confirmed' } }))
        .status,
    ).toBe(200);
    const runs = await until(
      () => runsOf(workflow.id),
      (list) => list.length === 2 && settled(list),
    );
    const statuses = runs.map((r) => r.status).sort();
    expect(statuses).toEqual(['completed', 'stopped']);
    expect(runs.find((r) => r.status === 'stopped')?.error).toBe(wm.runs.loopStopped);
    expect((await server.db('bookings').where({ id: booking.id }).first('status')).status).toBe('picked_up');
    expect(logLines.some((l) => l.includes('workflow loop stopped'))).toBe(true);
  });

  it('fires schedules and time-based triggers from the periodic scan, once per occasion', async () => {
    const today = todayInTimeZone(TZ, clock);
    const schedule = await createWorkflow(
      'Morning digest',
      line(trigger({ kind: 'schedule', cron: '0 9 * * *' }), notifyNode('n', 'Digest')),
    );
    const pickup = await createWorkflow(
      'Pickup tomorrow',
      line(trigger({ kind: 'booking.pickup_in', hours: 24 }), notifyNode('n', 'Pickup {{ booking.id }}')),
    );
    const returning = await createWorkflow(
      'Return today',
      line(trigger({ kind: 'booking.return_date_reached' }), notifyNode('n', 'Return {{ booking.id }}')),
    );
    const overdue = await createWorkflow(
      'Overdue',
      line(
        trigger({ kind: 'booking.return_overdue', businessDays: 1 }),
        notifyNode('n', 'Overdue {{ overdue.businessDays }}'),
      ),
    );
    const [kit] = await insertKits(server.db, 'Somfit', 3);
    const patient = await insertPatient(server.db);
    const start = wednesdayAhead(1);
    const confirmed = await insertBooking(server.db, {
      patientId: patient.id,
      kitId: kit?.id ?? null,
      kitType: 'Somfit',
      startDate: start,
    });
    const dueToday = await server
      .db('bookings')
      .insert({
        patient_id: patient.id,
        kit_id: null,
        kit_type: 'Somfit',
        test_type: '2-day',
        status: 'picked_up',
        start_date: addDays(today, -2),
        end_date: addDays(today, -1),
        return_date: today,
      })
      .returning('id');
    const late = await server
      .db('bookings')
      .insert({
        patient_id: patient.id,
        kit_id: null,
        kit_type: 'Somfit',
        test_type: '2-day',
        status: 'picked_up',
        start_date: addDays(today, -14),
        end_date: addDays(today, -13),
        return_date: addDays(today, -12),
      })
      .returning('id');

    // Enabled at midnight (a schedule fires only after it was enabled), then the tick at 09:00:30
    // practice time today, twice.
    await server
      .db('workflows')
      .whereIn('id', [schedule.id, pickup.id, returning.id, overdue.id])
      .update({ enabled_at: new Date(zonedInstant(today, 0, TZ)) });
    clock = new Date(zonedInstant(today, 9 * 60, TZ) + 30_000);
    await server.workflows.scan();
    await server.workflows.scan();
    await drained();
    expect(await runsSettled(schedule.id, 1)).toHaveLength(1);
    const returnRuns = await runsSettled(returning.id, 1);
    expect(returnRuns.map((r) => r.record?.id)).toEqual([dueToday[0].id]);
    const overdueRuns = await runsSettled(overdue.id, 1);
    expect(overdueRuns.map((r) => r.record?.id)).toEqual([late[0].id]);
    expect(overdueRuns[0]?.status).toBe('completed');
    expect(await runsOf(pickup.id)).toHaveLength(0);

    // Both kits come back; then the tick 23 hours before the pickup, twice.
    await server.db('bookings').whereIn('id', [dueToday[0].id, late[0].id]).update({ status: 'completed' });
    clock = new Date(pickupInstant(start, TZ).getTime() - 23 * 3_600_000);
    await server.workflows.scan();
    await server.workflows.scan();
    await drained();
    const pickupRuns = await runsSettled(pickup.id, 1);
    expect(pickupRuns.map((r) => r.record)).toEqual([{ type: 'booking', id: confirmed }]);
    // Each occasion ran once though the scan ran four times.
    for (const id of [pickup.id, returning.id, overdue.id]) expect(await runsOf(id)).toHaveLength(1);
  });

  it('installs the seven library workflows as disabled copies that pass validation; the demo seed enables two', async () => {
    const lib = await admin.request<{
      workflows: { key: string; sends: unknown[]; installedWorkflowIds: number[] }[];
    }>('GET', '/api/workflow-library');
    expect(lib.status).toBe(200);
    expect(lib.body.workflows.map((w) => w.key)).toEqual(LIBRARY_WORKFLOWS.map((w) => w.key));
    for (const item of lib.body.workflows) {
      const installed = await admin.request<WorkflowDetail>(
        'POST',
        `/api/workflow-library/${item.key}/install`,
      );
      expect(installed.status).toBe(201);
      expect(installed.body).toMatchObject({
        status: 'disabled',
        version: null,
        libraryKey: item.key,
        issues: [],
      });
      const enabled = await admin.request<WorkflowDetail>(
        'POST',
        `/api/workflows/${installed.body.id}/enable`,
      );
      expect(enabled.status, `${item.key}: ${JSON.stringify(enabled.body)}`).toBe(200);
    }
    const again = await admin.request<{ workflows: { installedWorkflowIds: number[] }[] }>(
      'GET',
      '/api/workflow-library',
    );
    expect(again.body.workflows.every((w) => w.installedWorkflowIds.length === 1)).toBe(true);
    expect((await admin.request('POST', '/api/workflow-library/no-such/install')).status).toBe(404);

    const fresh = await getTestServer();
    try {
      await seedDemo(fresh.db, { timeZone: TZ });
      const demoAdmin = await fresh.loginAs('admin');
      const list = await demoAdmin.request<{ workflows: WorkflowListItem[] }>('GET', '/api/workflows');
      expect(list.body.workflows).toHaveLength(7);
      expect(
        list.body.workflows
          .filter((w) => w.status === 'enabled')
          .map((w) => w.libraryKey)
          .sort(),
      ).toEqual(['pickup-reminder', 'sla-at-risk-alert']);
      for (const w of list.body.workflows) {
        const detail = await demoAdmin.request<WorkflowDetail>('GET', `/api/workflows/${w.id}`);
        expect(detail.body.issues, w.name).toEqual([]);
      }
    } finally {
      await fresh.close();
    }
  });

  it('refuses bad input with the problem at its node, saving nothing', async () => {
    const count = async () => Number((await server.db('workflows').count({ n: '*' }))[0]?.n);
    const unknownField = await admin.request<{
      error: string;
      issues: { path: string; message: string }[];
      byNode: Record<string, string[]>;
    }>('POST', '/api/workflows', {
      body: {
        name: 'Bad field',
        graph: {
          nodes: [
            trigger({ kind: 'booking.created' }),
            {
              id: 'cond',
              type: 'condition',
              logic: rulesToLogic({
                match: 'all',
                rules: [{ field: 'booking.colour', operator: 'equals', value: 'red' }],
              }),
            },
          ],
          edges: [edge('t', 'cond')],
        },
      },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error).toBe(wm.validation.invalidGraph);
    expect(unknownField.body.issues).toEqual([
      { path: 'nodes.cond', message: wm.validation.unknownField('booking.colour') },
    ]);
    expect(unknownField.body.byNode).toEqual({ cond: [wm.validation.unknownField('booking.colour')] });

    const badCron = await admin.request<{ issues: { path: string; message: string }[] }>(
      'POST',
      '/api/workflows',
      {
        body: {
          name: 'Bad cron',
          graph: line(trigger({ kind: 'schedule', cron: '0 25 * * *' }, 'sched'), notifyNode('n', 'x')),
        },
      },
    );
    expect(badCron.status).toBe(400);
    expect(badCron.body.issues[0]?.path).toBe('nodes.sched');
    expect(badCron.body.issues[0]?.message).toMatch(/^Invalid cron schedule/);

    const malformed = await admin.request('POST', '/api/workflows', {
      body: { name: 'Malformed', graph: { nodes: [{ id: 'x', type: 'teleport' }], edges: [] } },
    });
    expect(malformed.status).toBe(400);
    expect(await count()).toBe(0);

    // A draft with unfinished work is saved; enabling it is refused at the unfinished node.
    const draft = await createWorkflow(
      'Unfinished',
      {
        nodes: [trigger({ kind: 'booking.created' }), action('mail', { kind: 'send_email' })],
        edges: [edge('t', 'mail')],
      },
      false,
    );
    expect(draft.issues).toEqual([
      { nodeId: 'mail', severity: 'incomplete', message: wm.validation.chooseTemplate },
    ]);
    const refused = await admin.request<{ byNode: Record<string, string[]> }>(
      'POST',
      `/api/workflows/${draft.id}/enable`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.byNode).toEqual({ mail: [wm.validation.chooseTemplate] });
    const cycle = await admin.request<{ byNode: Record<string, string[]> }>(
      'PUT',
      `/api/workflows/${draft.id}`,
      {
        body: {
          name: 'Unfinished',
          graph: {
            nodes: [trigger({ kind: 'booking.created' }), notifyNode('a', 'a'), notifyNode('b', 'b')],
            edges: [edge('t', 'a'), edge('a', 'b'), edge('b', 'a')],
          },
        },
      },
    );
    expect(cycle.status).toBe(400);
    expect(cycle.body.byNode.a).toContain(wm.validation.cycle);
    const unchanged = await admin.request<WorkflowDetail>('GET', `/api/workflows/${draft.id}`);
    expect(unchanged.body.status).toBe('draft');
    expect(unchanged.body.graph.nodes.map((n) => n.id)).toEqual(['t', 'mail']);
    expect(await server.db('workflow_versions').count({ n: '*' })).toEqual([{ n: expect.anything() }]);
    expect(Number((await server.db('workflow_versions').count({ n: '*' }))[0]?.n)).toBe(0);
  });

  it('tests a draft against a real record without sending anything, and retries a failed step', async () => {
    await insertKits(server.db, 'Somfit', 1);
    const template = Number(
      (await server.db('message_templates').where({ key: 'pickup-reminder-email' }).first('id')).id,
    );
    const workflow = await createWorkflow(
      'Remind',
      {
        nodes: [
          trigger({ kind: 'booking.created' }),
          {
            id: 'c',
            type: 'condition',
            logic: rulesToLogic({
              match: 'all',
              rules: [{ field: 'kit.type', operator: 'equals', value: 'Somfit' }],
            }),
          },
          action('email', { kind: 'send_email', templateId: template, to: 'patient' }),
        ],
        edges: [edge('t', 'c'), edge('c', 'email', 'yes')],
      },
      false,
    );
    const patient = await insertPatient(server.db, { name: 'Sam Lee', email: '' });
    const booking = await admin.request<BookingListItem>('POST', '/api/bookings', {
      body: { patientId: patient.id, testType: '2-day', kitType: 'Somfit', startDate: wednesdayAhead(0) },
    });
    const samples = await admin.request<{ records: { id: number; label: string }[] }>(
      'GET',
      `/api/workflows/${workflow.id}/samples`,
    );
    expect(samples.body.records[0]?.label).toBe(
      `Booking #${booking.body.id} · Somfit · ${booking.body.startDate} · confirmed`,
    );
    await server.db('patients').where({ id: patient.id }).update({ email: 'sam@example.test' });
    const deliveriesBefore = Number((await server.db('deliveries').count({ n: '*' }))[0]?.n);
    const test = await admin.request<{ dryRun: true; steps: Record<string, unknown>[] }>(
      'POST',
      `/api/workflows/${workflow.id}/test`,
      { body: { recordId: booking.body.id } },
    );
    expect(test.status).toBe(200);
    expect(test.body.steps.map((s) => s.type)).toEqual(['trigger', 'condition', 'message']);
    expect(test.body.steps[1]).toMatchObject({ decision: 'yes', detail: wm.dryRun.decisionYes });
    expect(test.body.steps[2]).toMatchObject({
      channel: 'email',
      to: maskRecipient('sam@example.test'),
      subject: `Your sleep test kit is ready for pickup on ${booking.body.startDate}`,
    });
    expect(Number((await server.db('deliveries').count({ n: '*' }))[0]?.n)).toBe(deliveriesBefore);
    expect(await server.db('workflow_runs').count({ n: '*' })).toEqual([{ n: expect.anything() }]);
    expect(Number((await server.db('workflow_runs').count({ n: '*' }))[0]?.n)).toBe(0);

    // Live: the patient has no address now, so the email step fails; once fixed, a retry sends it.
    expect((await admin.request('POST', `/api/workflows/${workflow.id}/enable`)).status).toBe(200);
    await server.db('patients').where({ id: patient.id }).update({ email: '' });
    const second = await admin.request<BookingListItem>('POST', '/api/bookings', {
      body: { patientId: patient.id, testType: '2-day', kitType: 'Somfit', startDate: wednesdayAhead(2) },
    });
    expect(second.status).toBe(201);
    const [failed] = await until(
      () => runsOf(workflow.id),
      (runs) => runs[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', error: wm.runs.noRecipient });
    const detail = await runDetail(failed?.id as number);
    const step = detail.steps.find((s) => s.nodeId === 'email');
    expect(step).toMatchObject({ status: 'failed', attempts: 1, error: wm.runs.noRecipient });
    const list = await admin.request<{ workflows: WorkflowListItem[] }>('GET', '/api/workflows');
    expect(list.body.workflows[0]).toMatchObject({ runs7d: 1, failures7d: 1, lastRunStatus: 'failed' });

    await server.db('patients').where({ id: patient.id }).update({ email: 'sam@example.test' });
    const retried = await admin.request<WorkflowRunDetail>(
      'POST',
      `/api/workflow-runs/${failed?.id}/steps/${step?.id}/retry`,
    );
    expect(retried.status).toBe(200);
    const [done] = await until(
      () => runsOf(workflow.id),
      (runs) => runs[0]?.status === 'completed',
    );
    expect(done?.status).toBe('completed');
    const again = await admin.request('POST', `/api/workflow-runs/${failed?.id}/steps/${step?.id}/retry`);
    expect(again.status).toBe(409);
    const queued = await server
      .db('deliveries')
      .where({ idempotency_key: `workflow-run:${failed?.id}:email` });
    expect(queued).toHaveLength(1);
  });

  it('runs the library’s SLA at-risk alert once when a referral’s clock is at risk', async () => {
    const installed = await admin.request<WorkflowDetail>(
      'POST',
      '/api/workflow-library/sla-at-risk-alert/install',
    );
    expect((await admin.request('POST', `/api/workflows/${installed.body.id}/enable`)).status).toBe(200);
    const breached = await createWorkflow(
      'Breach',
      line(trigger({ kind: 'referral.sla_breached' }), notifyNode('n', 'Breached #{{ referral.id }}')),
    );
    const definition = await admin.request<{ id: number }>('POST', '/api/sla/definitions', {
      body: {
        name: 'Stat first contact',
        fromStage: 'received',
        toStage: 'contacted',
        targetHours: 1,
        businessHours: false,
        urgencies: ['stat'],
      },
    });
    expect(definition.status).toBe(201);
    const [physician] = await server
      .db('physicians')
      .insert({ name: 'Dr. Avery Chen', npi: '1234567893' })
      .returning('id');
    const referral = await admin.request<{ id: number }>('POST', '/api/referrals', {
      body: {
        newPatient: { name: 'Alex Alarmed', email: 'alex@example.test', phone: '555-0176' },
        physicianId: physician.id,
        reason: 'Severe daytime sleepiness while driving',
        urgency: 'stat',
      },
    });
    for (const minutes of [50, 55])
      await scanSlaClocks(server.db, TZ, new Date(Date.now() + minutes * 60_000));
    const runs = await runsSettled(installed.body.id, 1);
    expect(runs.map((r) => [r.status, r.record])).toEqual([
      ['completed', { type: 'referral', id: referral.body.id }],
    ]);
    expect(await notificationsTitled(`SLA at risk: referral #${referral.body.id}`)).toBe(1);
    const alert = await server
      .db('notifications')
      .where({ title: `SLA at risk: referral #${referral.body.id}` })
      .first();
    expect(alert.body).toBe('Stat first contact (1 h target) is close to being missed.');
    expect(await runsOf(breached.id)).toHaveLength(0);
    await scanSlaClocks(server.db, TZ, new Date(Date.now() + 90 * 60_000));
    expect(await runsSettled(breached.id, 1)).toHaveLength(1);
  });

  it('starts from an e-form submission once, with the form’s fields', async () => {
    const workflow = await createWorkflow(
      'Form in',
      line(
        trigger({ kind: 'form.submitted' }),
        notifyNode('n', 'Received {{ form.name }} from {{ patient.firstName }}'),
      ),
    );
    const form = await admin.request<{ id: number }>('POST', '/api/forms/templates', {
      body: {
        name: 'Snoring check',
        category: 'Screening',
        definition: {
          title: 'Snoring check',
          sections: [{ id: 'main', fields: [{ id: 'notes', kind: 'long_text', label: 'Anything else?' }] }],
        },
      },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect((await admin.request('POST', `/api/forms/templates/${form.body.id}/publish`)).status).toBe(200);
    const patient = await insertPatient(server.db, { name: 'Jordan Rivera' });
    const submitted = await admin.request('POST', `/api/forms/templates/${form.body.id}/submissions`, {
      body: { patientId: patient.id, answers: { notes: 'Sleeps on the left' } },
    });
    expect(submitted.status).toBe(201);
    const runs = await runsSettled(workflow.id, 1);
    expect(runs.map((r) => r.status)).toEqual(['completed']);
    expect(await notificationsTitled('Received Snoring check from Jordan')).toBe(1);
  });

  it('skips runs past the workflow’s hourly rate limit', async () => {
    const created = await admin.request<WorkflowDetail>('POST', '/api/workflows', {
      body: {
        name: 'Welcome',
        rateLimitPerHour: 2,
        graph: line(trigger({ kind: 'patient.created' }), notifyNode('n', 'Welcome {{ patient.firstName }}')),
      },
    });
    expect(created.status).toBe(201);
    expect((await admin.request('POST', `/api/workflows/${created.body.id}/enable`)).status).toBe(200);
    for (const name of ['Ada One', 'Bea Two', 'Cy Three'])
      expect(
        (
          await admin.request('POST', '/api/patients', {
            body: { name, email: `${name.split(' ')[0]?.toLowerCase()}@example.test`, phone: '555-0199' },
          })
        ).status,
      ).toBe(201);
    const runs = await until(
      () => runsOf(created.body.id),
      (list) => list.length === 3 && settled(list),
    );
    expect(runs.map((r) => r.status).sort()).toEqual(['completed', 'completed', 'skipped']);
    expect(runs.find((r) => r.status === 'skipped')?.error).toBe(wm.runs.rateLimited(2));
  });

  it('lets schedulers build workflows and staff only read them, on the server', async () => {
    const staff = await server.loginAs('staff');
    const scheduler = await server.loginAs('scheduler');
    const technician = await server.loginAs('technician');
    const graph = line(trigger({ kind: 'patient.created' }), notifyNode('n', 'New patient'));
    expect((await staff.request('GET', '/api/workflows')).status).toBe(200);
    expect((await staff.request('POST', '/api/workflows', { body: { name: 'x', graph } })).status).toBe(403);
    expect((await technician.request('GET', '/api/workflows')).status).toBe(403);
    const created = await scheduler.request<WorkflowDetail>('POST', '/api/workflows', {
      body: { name: 'Mine', graph },
    });
    expect(created.status).toBe(201);
    expect((await staff.request('POST', `/api/workflows/${created.body.id}/enable`)).status).toBe(403);
    expect((await scheduler.request('POST', `/api/workflows/${created.body.id}/enable`)).status).toBe(200);
    expect((await scheduler.request('DELETE', `/api/workflows/${created.body.id}`)).status).toBe(409);
    const copy = await scheduler.request<WorkflowDetail>(
      'POST',
      `/api/workflows/${created.body.id}/duplicate`,
    );
    expect(copy.body).toMatchObject({ name: wm.copyName('Mine'), status: 'draft', version: null });
    expect((await scheduler.request('DELETE', `/api/workflows/${copy.body.id}`)).status).toBe(204);
    const audited = await server.db('audit_events').where('action', 'like', 'workflow.%').select('action');
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['workflow.create', 'workflow.enable', 'workflow.duplicate', 'workflow.delete']),
    );
  });
});
