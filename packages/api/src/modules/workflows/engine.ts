import { createHmac } from 'node:crypto';
import {
  addDays,
  type BookingStatus,
  businessDaysBetween,
  canTransition,
  cronFireTimes,
  defineAbilityFor,
  evaluateCondition,
  maskRecipient,
  nextNodeId,
  pickupInstant,
  renderTemplate,
  SCANNED_TRIGGER_KINDS,
  subject,
  TRIGGER_TOPICS,
  transitionNeedsReason,
  triggerNodeOf,
  triggerOfTopic,
  type WorkflowGraph,
  type WorkflowNode,
  type WorkflowTrigger,
  type WorkflowTriggerKind,
  waitEnd,
  workflowMessages as wm,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import type { AppContext, AppServices } from '../../http/context.js';
import { HttpError } from '../../http/errors.js';
import type { Job } from '../../jobs/jobs.js';
import type { OutboxJobData } from '../../jobs/outbox.js';
import { knexSql } from '../../jobs/sql.js';
import { changeBookingStatus } from '../bookings/operations.js';
import { requestDelivery } from '../deliveries/service.js';
import { notify } from '../notifications/store.js';
import { recordTransition } from '../referrals/store.js';
import { findTemplate, templateVersion } from '../templates/store.js';
import { findUserById, toCurrentUser } from '../users/store.js';
import {
  loadRunContext,
  type PracticeFacts,
  practiceFacts,
  type RecordRef,
  type RunContext,
  recordOfEvent,
} from './context.js';
import { webhookSecretOf } from './store.js';

// The workflow engine. Outbox events (and the periodic scan's time-based occasions) become runs:
// one row per event and workflow, unique, so an event never starts a workflow twice. Each step is
// a pg-boss job; a step's effects (a delivery queued with its idempotency key, a notification, a
// status change) commit in the transaction that marks it done and queues the next step, so a
// step retried after a crash never does its work twice. A wait queues the next step with
// `startAfter`; the scan also queues any step that has come due (and is the test clock's tick).

export const WORKFLOW_EVENT_QUEUE = 'workflow-event';
export const WORKFLOW_STEP_QUEUE = 'workflow-step';
export const WORKFLOW_SCAN_QUEUE = 'workflow-scan';
/** Every minute: schedules, pickups in N hours, return dates, overdue returns, due waits. */
export const WORKFLOW_SCAN_CRON = '* * * * *';
/** A workflow re-triggered by its own action on the same record within this time is stopped. */
export const LOOP_WINDOW_MS = 60_000;
const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WorkflowEngineOptions {
  /** The engine's clock (tests move it; waits and scans read it). */
  clock?: () => Date;
  /** Retry timing of steps (seconds before the first retry, doubled each time). */
  stepRetryDelay?: number;
  /** How long one step may run before it counts as failed and is retried (seconds). */
  stepExpireInSeconds?: number;
  /** Called once a step's transaction has committed (a test kills a process here). */
  afterStep?: (stepId: number, nodeType: string) => void | Promise<void>;
}

interface StepJobData {
  stepId: number;
}

interface WorkflowRow {
  id: number;
  name: string;
  status: string;
  version: number | null;
  rate_limit_per_hour: number;
  enabled_by: number | null;
  enabled_at: Date | null;
  webhook_salt: string;
}

interface RunRow {
  id: number;
  workflow_id: number;
  version: number;
  trigger_kind: WorkflowTriggerKind;
  record_type: RecordRef['type'] | null;
  record_id: number | null;
  input: Record<string, unknown>;
  status: string;
  started_at: Date;
}

interface StepRow {
  id: number;
  run_id: number;
  node_id: string;
  node_type: string;
  status: string;
  attempts: number;
  run_after: Date | null;
}

/** A step that cannot succeed by trying again (no address, a refused status change). */
export class StepFailure extends Error {
  override name = 'StepFailure';
}

interface StepResult {
  output: Record<string, unknown>;
  /** The next node, or undefined at the end of the path. */
  next: string | undefined;
  /** For a wait: when the next step is due. */
  runAfter?: Date;
}

/** Does the trigger's parameters accept this event (e.g. "to: reported")? */
export function triggerAccepts(trigger: WorkflowTrigger, input: Record<string, unknown>): boolean {
  if (trigger.kind === 'booking.status_changed' || trigger.kind === 'referral.status_changed') {
    if (trigger.from !== null && input.from !== trigger.from) return false;
    if (trigger.to !== null && input.to !== trigger.to) return false;
  }
  return true;
}

/** The identifiers and statuses of a run's data: what leaves the practice in a webhook (no names). */
export function webhookData(context: RunContext): Record<string, unknown> {
  const pick = (group: string, keys: string[]) => {
    const source = context.data[group];
    if (!source) return undefined;
    return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
  };
  const data: Record<string, unknown> = {
    booking: pick('booking', ['id', 'status', 'testType', 'startDate', 'endDate', 'returnDate']),
    kit: pick('kit', ['id', 'type', 'cleaningDueOn']),
    referral: pick('referral', ['id', 'status', 'urgency']),
    patient: pick('patient', ['id']),
    change: pick('change', ['from', 'to']),
    event: pick('event', ['date']),
  };
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

/** Renders a short liquid text (a notification title, a note) with the run's data. */
export function renderText(source: string, data: Record<string, unknown>): string {
  if (source === '') return '';
  return (
    renderTemplate({ channel: 'sms', trigger: 'booking.pickup_reminder', body: source }, data).body ?? ''
  );
}

export class WorkflowEngine {
  constructor(
    private readonly services: AppServices,
    private readonly options: WorkflowEngineOptions = {},
  ) {}

  now(): Date {
    return this.options.clock?.() ?? new Date();
  }

  /** Declares the engine's queues, its outbox subscriptions and its scan. */
  register(): void {
    const { jobs, outbox } = this.services;
    jobs.define<OutboxJobData>({
      name: WORKFLOW_EVENT_QUEUE,
      retryLimit: 5,
      retryDelay: 5,
      // Matching an event to workflows is a few reads; events come in the outbox's batches.
      fetchBatch: 20,
      handler: (job) => this.handleEvent(job),
    });
    for (const topic of new Set(Object.values(TRIGGER_TOPICS))) outbox.subscribe(topic, WORKFLOW_EVENT_QUEUE);
    jobs.define<StepJobData>({
      name: WORKFLOW_STEP_QUEUE,
      retryLimit: 5,
      retryDelay: this.options.stepRetryDelay ?? 30,
      expireInSeconds: this.options.stepExpireInSeconds ?? 5 * 60,
      handler: (job) => this.runStep(job),
    });
    jobs.define({
      name: WORKFLOW_SCAN_QUEUE,
      policy: 'singleton',
      retryLimit: 1,
      handler: async () => this.scan(),
    });
    jobs.schedule(WORKFLOW_SCAN_QUEUE, WORKFLOW_SCAN_CRON);
  }

  // --- Starting runs ---------------------------------------------------------------------------

  private async handleEvent(job: Job<OutboxJobData>): Promise<object> {
    const { eventId, topic, payload } = job.data;
    const kind = triggerOfTopic(topic);
    if (!kind) return { ignored: topic };
    // Most events start nothing (every booking made writes one): one read, outside a transaction,
    // spares them the event's time and the transaction of startRuns. A workflow enabled since
    // the event was written would not start for it anyway.
    if ((await this.enabledWorkflows(this.services.db.knex, kind)).length === 0) return { started: 0 };
    // A workflow enabled after the change happened does not start for it.
    const event = await this.services.db.knex('outbox_events').where({ id: eventId }).first('created_at');
    const started = await this.startRuns(kind, `outbox:${eventId}`, payload, recordOfEvent(kind, payload), {
      occurredAt: event ? new Date(event.created_at) : undefined,
    });
    return { started };
  }

  /** Enabled workflows of a trigger kind, with the graph of the version they run. */
  private async enabledWorkflows(db: Knex, kind: WorkflowTriggerKind) {
    const rows = (await db('workflows as w')
      .join('workflow_versions as v', (j) => j.on('v.workflow_id', 'w.id').andOn('v.version', 'w.version'))
      .where({ 'w.status': 'enabled', 'v.trigger_kind': kind })
      .select('w.*', 'v.graph as version_graph')) as Array<WorkflowRow & { version_graph: WorkflowGraph }>;
    return rows;
  }

  /**
   * Starts one run per enabled workflow of `kind` for an occasion (`eventKey`), unless it has run
   * for it already. Returns how many started. `only` limits it to one workflow (the scan);
   * `occurredAt` leaves out workflows enabled after the event.
   */
  async startRuns(
    kind: WorkflowTriggerKind,
    eventKey: string,
    input: Record<string, unknown>,
    record: RecordRef | null,
    filter: { only?: number; occurredAt?: Date | undefined } = {},
  ): Promise<number> {
    const knex = this.services.db.knex;
    const now = this.now();
    const queued = await knex.transaction(async (trx) => {
      let count = 0;
      for (const workflow of await this.enabledWorkflows(trx, kind)) {
        if (filter.only !== undefined && workflow.id !== filter.only) continue;
        if (filter.occurredAt && workflow.enabled_at && new Date(workflow.enabled_at) > filter.occurredAt)
          continue;
        const graph = workflow.version_graph;
        const triggerNode = triggerNodeOf(graph);
        if (!triggerNode || !triggerAccepts(triggerNode.trigger, input)) continue;
        const { status, error } = await this.admission(trx, workflow, input, record, now);
        const [run] = (await trx('workflow_runs')
          .insert({
            workflow_id: workflow.id,
            version: workflow.version,
            event_key: eventKey,
            trigger_kind: kind,
            record_type: record?.type ?? null,
            record_id: record?.id ?? null,
            input: JSON.stringify(input),
            status,
            error,
            started_at: now,
            finished_at: status === 'running' ? null : now,
          })
          .onConflict(['workflow_id', 'event_key'])
          .ignore()
          .returning('id')) as { id: number }[];
        if (!run) continue;
        if (status === 'stopped')
          this.services.logger.warn({ workflow: workflow.id, run: run.id }, 'workflow loop stopped');
        if (status !== 'running') continue;
        const first = nextNodeId(graph, triggerNode.id);
        if (first === undefined) {
          await trx('workflow_runs').where({ id: run.id }).update({ status: 'completed', finished_at: now });
          continue;
        }
        await this.queueStep(trx, run.id, first, graph);
        count++;
      }
      return count;
    });
    if (queued > 0) this.services.jobs.notify(WORKFLOW_STEP_QUEUE);
    return queued;
  }

  /** Rate limit and loop guard: may this workflow start a run now? */
  private async admission(
    db: Knex,
    workflow: WorkflowRow,
    input: Record<string, unknown>,
    record: RecordRef | null,
    now: Date,
  ): Promise<{ status: 'running' | 'stopped' | 'skipped'; error: string | null }> {
    const origin = input.origin as { workflowId?: number; runId?: number } | undefined;
    if (origin?.workflowId === workflow.id && record && origin.runId !== undefined) {
      const cause = (await db('workflow_runs').where({ id: origin.runId }).first()) as RunRow | undefined;
      if (
        cause &&
        cause.record_type === record.type &&
        cause.record_id === record.id &&
        now.getTime() - new Date(cause.started_at).getTime() < LOOP_WINDOW_MS
      )
        return { status: 'stopped', error: wm.runs.loopStopped };
    }
    const [{ n }] = (await db('workflow_runs')
      .where({ workflow_id: workflow.id })
      .whereIn('status', ['running', 'waiting', 'completed', 'failed'])
      .where('started_at', '>', new Date(now.getTime() - 3_600_000))
      .count({ n: '*' })) as [{ n: string | number }];
    if (Number(n) >= workflow.rate_limit_per_hour)
      return { status: 'skipped', error: wm.runs.rateLimited(workflow.rate_limit_per_hour) };
    return { status: 'running', error: null };
  }

  /** Adds a step row and queues its job, in the caller's transaction. */
  private async queueStep(
    trx: Knex,
    runId: number,
    nodeId: string,
    graph: WorkflowGraph,
    runAfter?: Date,
  ): Promise<void> {
    const node = graph.nodes.find((candidate) => candidate.id === nodeId);
    const [step] = (await trx('workflow_run_steps')
      .insert({
        run_id: runId,
        node_id: nodeId,
        node_type: node?.type ?? 'action',
        status: 'pending',
        run_after: runAfter ?? null,
      })
      .onConflict(['run_id', 'node_id'])
      .ignore()
      .returning('id')) as { id: number }[];
    if (!step) return;
    await this.services.jobs.send(
      WORKFLOW_STEP_QUEUE,
      { stepId: step.id },
      { db: knexSql(trx), ...(runAfter ? { startAfter: runAfter } : {}) },
    );
  }

  // --- Running steps ---------------------------------------------------------------------------

  private async runStep(job: Job<StepJobData>): Promise<object> {
    const knex = this.services.db.knex;
    const stepId = Number(job.data.stepId);
    const peek = (await knex('workflow_run_steps').where({ id: stepId }).first()) as StepRow | undefined;
    if (!peek || !['pending', 'running'].includes(peek.status)) return { skipped: peek?.status ?? 'missing' };
    if (peek.run_after && new Date(peek.run_after).getTime() > this.now().getTime()) return { notYet: true };
    const run = (await knex('workflow_runs').where({ id: peek.run_id }).first()) as RunRow;
    const version = await knex('workflow_versions')
      .where({ workflow_id: run.workflow_id, version: run.version })
      .first('graph');
    const workflow = (await knex('workflows').where({ id: run.workflow_id }).first()) as WorkflowRow;
    const graph = version.graph as WorkflowGraph;
    const node = graph.nodes.find((candidate) => candidate.id === peek.node_id);
    try {
      if (!node) throw new StepFailure('unknown step');
      // A webhook calls out before the step's transaction (no lock held over the network); its
      // delivery id lets the receiver drop a repeat.
      const webhookOutput =
        node.type === 'action' && node.action.kind === 'webhook'
          ? await this.callWebhook(workflow, run, peek, node.action.url)
          : undefined;
      const done = await knex.transaction(async (trx) => {
        const step = (await trx('workflow_run_steps').where({ id: stepId }).forUpdate().first()) as StepRow;
        if (!['pending', 'running'].includes(step.status)) return false;
        const now = this.now();
        const facts = await practiceFacts(this.services, trx, now);
        const record = run.record_type && run.record_id ? { type: run.record_type, id: run.record_id } : null;
        const context = await loadRunContext(this.services, trx, run.trigger_kind, record, run.input, facts);
        if (!context) throw new StepFailure(wm.runs.recordMissing);
        const result: StepResult = webhookOutput
          ? { output: webhookOutput, next: nextNodeId(graph, node.id) }
          : await this.execute(trx, node, graph, { workflow, run, step, context, facts, now });
        const waiting = node.type === 'wait';
        await trx('workflow_run_steps')
          .where({ id: stepId })
          .update({
            status: waiting ? 'waiting' : 'completed',
            output: JSON.stringify(result.output),
            attempts: step.attempts + 1,
            started_at: trx.raw('coalesce(started_at, ?)', [now]),
            finished_at: waiting ? null : now,
            error: null,
          });
        // The wait before this step is over.
        await trx('workflow_run_steps')
          .where({ run_id: run.id, status: 'waiting' })
          .whereNot({ id: stepId })
          .update({ status: 'completed', finished_at: now });
        if (result.next !== undefined) {
          await this.queueStep(trx, run.id, result.next, graph, result.runAfter);
          await trx('workflow_runs')
            .where({ id: run.id })
            .update({ status: result.runAfter ? 'waiting' : 'running' });
        } else {
          await trx('workflow_runs').where({ id: run.id }).update({ status: 'completed', finished_at: now });
        }
        return true;
      });
      if (done) {
        this.services.jobs.notify(WORKFLOW_STEP_QUEUE);
        await this.options.afterStep?.(stepId, node.type);
      }
      return { done };
    } catch (error) {
      const final = error instanceof StepFailure || job.retryCount >= job.retryLimit;
      const message =
        error instanceof StepFailure
          ? error.message
          : error instanceof HttpError
            ? error.message
            : ((error as Error)?.message ?? 'error').slice(0, 300);
      const now = this.now();
      await knex.transaction(async (trx) => {
        await trx('workflow_run_steps')
          .where({ id: stepId })
          .update({
            status: final ? 'failed' : 'pending',
            attempts: trx.raw('attempts + 1'),
            started_at: trx.raw('coalesce(started_at, ?)', [now]),
            finished_at: final ? now : null,
            error: message,
          });
        if (final)
          await trx('workflow_runs')
            .where({ id: run.id })
            .update({ status: 'failed', finished_at: now, error: message });
      });
      if (final) return { failed: message };
      throw error;
    }
  }

  private async execute(
    trx: Knex,
    node: WorkflowNode,
    graph: WorkflowGraph,
    env: {
      workflow: WorkflowRow;
      run: RunRow;
      step: StepRow;
      context: RunContext;
      facts: PracticeFacts;
      now: Date;
    },
  ): Promise<StepResult> {
    const { context, run } = env;
    switch (node.type) {
      case 'trigger':
        return { output: {}, next: nextNodeId(graph, node.id) };
      case 'condition': {
        const passed = evaluateCondition(node.logic, context.data);
        const branch = passed ? 'yes' : 'no';
        return { output: { decision: branch }, next: nextNodeId(graph, node.id, branch) };
      }
      case 'wait': {
        const until = waitEnd(node.wait, env.now.getTime(), env.facts.calendar);
        return { output: { until: until.toISOString() }, next: nextNodeId(graph, node.id), runAfter: until };
      }
      case 'action': {
        const action = node.action;
        const key = `workflow-run:${run.id}:${node.id}`;
        switch (action.kind) {
          case 'send_email':
          case 'send_sms': {
            const channel = action.kind === 'send_email' ? 'email' : 'sms';
            const template =
              action.templateId === null ? undefined : await findTemplate(trx, action.templateId);
            const version = template
              ? await templateVersion(trx, template.id, template.current_version)
              : undefined;
            if (!template || !version) throw new StepFailure(wm.validation.templateMissing);
            const recipient =
              action.kind === 'send_email'
                ? action.to === 'address'
                  ? action.address
                  : action.to === 'physician'
                    ? context.recipients.physicianEmail
                    : context.recipients.patientEmail
                : action.to === 'number'
                  ? action.number
                  : context.recipients.patientPhone;
            if (!recipient) throw new StepFailure(wm.runs.noRecipient);
            const content = renderTemplate(
              {
                channel,
                trigger: template.trigger,
                subject: version.subject ?? undefined,
                html: version.html ?? undefined,
                text: version.text ?? undefined,
                body: version.body ?? undefined,
              },
              context.data,
            );
            const delivery = await requestDelivery(trx, {
              channel,
              recipient,
              content,
              templateId: template.id,
              templateVersion: template.current_version,
              patientId: action.to === 'patient' ? context.patientId : null,
              containsPhi: template.contains_phi,
              idempotencyKey: key,
            });
            return {
              output: {
                deliveryId: delivery.id,
                channel,
                to: maskRecipient(recipient),
                templateId: template.id,
                templateVersion: template.current_version,
              },
              next: nextNodeId(graph, node.id),
            };
          }
          case 'notify': {
            const title = renderText(action.title, context.data);
            const body = renderText(action.body, context.data);
            const id = await notify(trx, {
              ...(action.to === 'user' ? { userId: action.userId } : { role: action.role }),
              kind: `workflow.${env.workflow.id}`,
              title,
              body: body || null,
              link: context.link,
            });
            return { output: { notificationId: id, title }, next: nextNodeId(graph, node.id) };
          }
          case 'set_booking_status':
          case 'set_referral_status':
          case 'add_note':
            return {
              output: await this.changeRecord(trx, action, env),
              next: nextNodeId(graph, node.id),
            };
          case 'webhook':
            // Called before the transaction (runStep).
            return { output: {}, next: nextNodeId(graph, node.id) };
        }
      }
    }
  }

  /** A request context acting as the user who enabled the workflow, with their permissions. */
  private async actingContext(trx: Knex, workflow: WorkflowRow, run: RunRow): Promise<AppContext> {
    const row = workflow.enabled_by === null ? undefined : await findUserById(trx, workflow.enabled_by);
    if (!row?.is_active) throw new StepFailure(wm.runs.permissionDenied);
    const user = toCurrentUser(row);
    return {
      services: this.services,
      state: {
        user,
        ability: defineAbilityFor(user),
        trx: trx as Knex.Transaction,
        workflowOrigin: { workflowId: workflow.id, runId: run.id },
        requestId: `workflow-run-${run.id}`,
      },
      ip: '',
      get: () => '',
    } as unknown as AppContext;
  }

  private async changeRecord(
    trx: Knex,
    action: Extract<WorkflowNode, { type: 'action' }>['action'],
    env: { workflow: WorkflowRow; run: RunRow; context: RunContext },
  ): Promise<Record<string, unknown>> {
    const { workflow, run } = env;
    const ctx = await this.actingContext(trx, workflow, run);
    const ability = defineAbilityFor(ctx.state.user ?? null);
    const recordId = run.record_id;
    if (recordId === null) throw new StepFailure(wm.runs.recordMissing);
    try {
      if (action.kind === 'set_booking_status') {
        const to = action.status as BookingStatus;
        const before = await trx('bookings').where({ id: recordId }).first('status');
        const booking = await changeBookingStatus(ctx, recordId, {
          status: to,
          ...(to === 'cancelled' ? { reason: workflow.name } : {}),
        });
        return {
          record: { type: 'booking', id: recordId },
          from: before?.status ?? null,
          to: booking.status,
        };
      }
      if (action.kind === 'set_referral_status') {
        const row = await trx('referrals').where({ id: recordId }).forUpdate().first();
        if (!row) throw new StepFailure(wm.runs.recordMissing);
        if (!ability.can('update', subject('Referral', { physicianId: row.physician_id })))
          throw new StepFailure(wm.runs.permissionDenied);
        const to = action.status;
        if (!to || !canTransition(row.status, to, 'manual'))
          throw new StepFailure(wm.dryRun.statusNotAllowed(`Referral #${recordId}`, row.status, String(to)));
        const note = action.reason || (transitionNeedsReason(to) ? workflow.name : '');
        await recordTransition(
          trx,
          row,
          to,
          'manual',
          ctx.state.user?.id ?? null,
          note,
          {},
          {
            workflowId: workflow.id,
            runId: run.id,
          },
        );
        await audit(trx, ctx, {
          action: 'referral.status_change',
          outcome: 'success',
          entityType: 'referral',
          entityId: recordId,
          details: { from: row.status, to, workflow: workflow.id, run: run.id },
        });
        return { record: { type: 'referral', id: recordId }, from: row.status, to };
      }
      if (action.kind === 'add_note') {
        const table = run.record_type === 'referral' ? 'referrals' : 'bookings';
        const row = await trx(table).where({ id: recordId }).forUpdate().first();
        if (!row) throw new StepFailure(wm.runs.recordMissing);
        const type = table === 'referrals' ? 'Referral' : 'Booking';
        if (!ability.can('update', subject(type, { physicianId: row.physician_id ?? null })))
          throw new StepFailure(wm.runs.permissionDenied);
        const text = renderText(action.text, env.context.data);
        const notes = [row.notes, `${workflow.name}: ${text}`].filter((part) => part).join('\n');
        await trx(table).where({ id: recordId }).update({ notes });
        await audit(trx, ctx, {
          action: 'workflow.action',
          outcome: 'success',
          entityType: run.record_type ?? 'booking',
          entityId: recordId,
          details: { workflow: workflow.id, run: run.id, kind: 'add_note' },
        });
        return { record: { type: run.record_type, id: recordId }, note: true };
      }
      return {};
    } catch (error) {
      // The API's refusals (409 not allowed now, 403, 404) will not change by retrying.
      if (error instanceof HttpError && error.status < 500) throw new StepFailure(error.message);
      throw error;
    }
  }

  private async callWebhook(workflow: WorkflowRow, run: RunRow, step: StepRow, url: string) {
    const knex = this.services.db.knex;
    const facts = await practiceFacts(this.services, knex, this.now());
    const record = run.record_type && run.record_id ? { type: run.record_type, id: run.record_id } : null;
    const context = await loadRunContext(this.services, knex, run.trigger_kind, record, run.input, facts);
    if (!context) throw new StepFailure(wm.runs.recordMissing);
    const deliveryId = `workflow-run:${run.id}:${step.node_id}`;
    const payload = {
      id: deliveryId,
      event: run.trigger_kind,
      workflow: { id: workflow.id, name: workflow.name, version: run.version },
      run: run.id,
      record,
      occurredAt: this.now().toISOString(),
      data: webhookData(context),
    };
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const secret = webhookSecretOf(this.services, workflow.webhook_salt);
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const started = Date.now();
    let status = 0;
    let failure: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Wellrest-Workflows/1',
          'x-wellrest-event': run.trigger_kind,
          'x-wellrest-delivery': deliveryId,
          'x-wellrest-timestamp': String(timestamp),
          'x-wellrest-signature': `sha256=${signature}`,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      status = response.status;
      await response.body?.cancel();
      if (status < 200 || status >= 300) failure = `http_${status}`;
    } catch (error) {
      failure = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    }
    await knex('webhook_deliveries')
      .insert({
        direction: 'outbound',
        source: 'workflow',
        event: run.trigger_kind,
        webhook_id: deliveryId,
        status: failure ? 'failed' : 'processed',
        signature: 'valid',
        reason: failure,
        attempts: step.attempts + 1,
        latency_ms: Date.now() - started,
        payload: JSON.stringify({ workflow: workflow.id, run: run.id, url: new URL(url).origin, status }),
      })
      .onConflict()
      .ignore();
    if (failure) {
      // A refusal (4xx other than timeout and rate limit) will not change by retrying.
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) throw new StepFailure(failure);
      throw new Error(failure);
    }
    return { url: new URL(url).origin + new URL(url).pathname, status, deliveryId };
  }

  // --- Retrying --------------------------------------------------------------------------------

  /** Queues a failed step of a failed run again (same step row, same idempotency key). */
  async retryStep(trx: Knex, runId: number, stepId: number): Promise<boolean> {
    const step = (await trx('workflow_run_steps').where({ id: stepId, run_id: runId }).forUpdate().first()) as
      | StepRow
      | undefined;
    const run = (await trx('workflow_runs').where({ id: runId }).forUpdate().first()) as RunRow | undefined;
    if (!step || !run || step.status !== 'failed' || run.status !== 'failed') return false;
    await trx('workflow_run_steps')
      .where({ id: stepId })
      .update({ status: 'pending', error: null, finished_at: null, run_after: null });
    await trx('workflow_runs')
      .where({ id: runId })
      .update({ status: 'running', error: null, finished_at: null });
    await this.services.jobs.send(WORKFLOW_STEP_QUEUE, { stepId }, { db: knexSql(trx) });
    return true;
  }

  // --- The periodic scan -----------------------------------------------------------------------

  /**
   * Fires the time-based triggers and schedules whose moment has come, and queues steps whose wait
   * is over. Idempotent: each occasion has its own event key, so running it twice starts nothing twice.
   */
  async scan(now: Date = this.now()): Promise<{ started: number; resumed: number }> {
    const knex = this.services.db.knex;
    const facts = await practiceFacts(this.services, knex, now);
    let started = 0;
    for (const kind of SCANNED_TRIGGER_KINDS) {
      for (const workflow of await this.enabledWorkflows(knex, kind)) {
        const trigger = triggerNodeOf(workflow.version_graph)?.trigger;
        if (!trigger) continue;
        for (const occasion of await this.occasions(knex, trigger, workflow, facts, now))
          started += await this.startRuns(kind, occasion.key, occasion.input, occasion.record, {
            only: workflow.id,
          });
      }
    }
    const due = (await knex('workflow_run_steps as s')
      .join('workflow_runs as r', 'r.id', 's.run_id')
      .where('s.status', 'pending')
      .whereNotNull('s.run_after')
      .where('s.run_after', '<=', now)
      .whereIn('r.status', ['waiting', 'running'])
      .select('s.id')) as { id: number }[];
    for (const { id } of due) await this.services.jobs.send(WORKFLOW_STEP_QUEUE, { stepId: id });
    return { started, resumed: due.length };
  }

  private async occasions(
    db: Knex,
    trigger: WorkflowTrigger,
    workflow: WorkflowRow,
    facts: PracticeFacts,
    now: Date,
  ): Promise<Array<{ key: string; input: Record<string, unknown>; record: RecordRef | null }>> {
    const today = facts.today;
    const booking = (id: number): RecordRef => ({ type: 'booking', id });
    switch (trigger.kind) {
      case 'booking.pickup_in': {
        const rows = (await db('bookings')
          .where({ status: 'confirmed' })
          .whereBetween('start_date', [today, addDays(today, Math.ceil(trigger.hours / 24) + 1)])
          .select('id', 'start_date')) as { id: number; start_date: string }[];
        return rows
          .filter((row) => {
            const pickup = pickupInstant(row.start_date, facts.timeZone).getTime();
            return now.getTime() >= pickup - trigger.hours * 3_600_000 && now.getTime() < pickup;
          })
          .map((row) => ({
            key: `pickup:${row.id}:${row.start_date}:${trigger.hours}`,
            input: { bookingId: row.id, startDate: row.start_date },
            record: booking(row.id),
          }));
      }
      case 'booking.return_date_reached': {
        const rows = (await db('bookings')
          .where({ status: 'picked_up', return_date: today })
          .select('id', 'return_date')) as { id: number; return_date: string }[];
        return rows.map((row) => ({
          key: `return:${row.id}:${row.return_date}`,
          input: { bookingId: row.id, returnDate: row.return_date },
          record: booking(row.id),
        }));
      }
      case 'booking.return_overdue': {
        // Kits due back in the last 90 days: older ones were chased when they fell due.
        const rows = (await db('bookings')
          .where({ status: 'picked_up' })
          .where('return_date', '<', today)
          .where('return_date', '>=', addDays(today, -90))
          .select('id', 'return_date')) as { id: number; return_date: string }[];
        return rows
          .filter(
            (row) => businessDaysBetween(row.return_date, today, facts.calendar) >= trigger.businessDays,
          )
          .map((row) => ({
            key: `overdue:${row.id}:${row.return_date}:${trigger.businessDays}`,
            input: { bookingId: row.id, returnDate: row.return_date },
            record: booking(row.id),
          }));
      }
      case 'schedule': {
        // Fire times since the last hour (or since it was enabled): a scan missed is caught up once.
        const enabledAt = workflow.enabled_at ? new Date(workflow.enabled_at).getTime() : now.getTime();
        const after = Math.max(enabledAt, now.getTime() - 3_600_000);
        const fires = cronFireTimes(trigger.cron, facts.timeZone, after - 1, now.getTime(), 60);
        const last = fires.at(-1);
        return last
          ? [{ key: `cron:${last.toISOString()}`, input: { firedAt: last.toISOString() }, record: null }]
          : [];
      }
      default:
        return [];
    }
  }
}
