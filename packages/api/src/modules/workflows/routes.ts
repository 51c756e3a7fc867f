import Router from '@koa/router';
import {
  type BookingStatus,
  canTransition,
  canTransitionBooking,
  type DryRunResult,
  type DryRunSample,
  type DryRunStep,
  evaluateCondition,
  issuesByNode,
  LIBRARY_WORKFLOWS,
  type LibraryItemView,
  libraryWorkflow,
  logicToRules,
  maskRecipient,
  nextNodeId,
  nodeLabel,
  type RecordScope,
  type ReferralStatus,
  recordTypeOf,
  renderTemplate,
  resolveLibraryGraph,
  ruleToLogic,
  triggerNodeOf,
  WorkflowDraftInput,
  WorkflowDryRunInput,
  type WorkflowGraph,
  WorkflowGraph as WorkflowGraphSchema,
  type WorkflowValidationView,
  waitEnd,
  workflowMessages as wm,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppServices, AppState } from '../../http/context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { findTemplate, templateVersion } from '../templates/store.js';
import { loadRunContext, practiceFacts } from './context.js';
import { renderText, webhookData } from './engine.js';
import {
  checkGraph,
  findWorkflow,
  graphProblem,
  listRuns,
  listWorkflows,
  newWebhookSalt,
  runDetail,
  savableIssues,
  triggerKindOf,
  type WorkflowRecordRow,
  workflowDetail,
} from './store.js';

// /workflows, /workflow-builder and /workflow-library: drafts saved as they are edited, checked
// against core's rules (bad input refused with the problem on its node), enabled as a new
// version, run history with retry of a failed step, and a dry run against a real record.

type Input<T> = AppContext & { state: { input: T } };

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const StepParams = z.object({
  id: z.coerce.number().int().positive(),
  stepId: z.coerce.number().int().positive(),
});
const KeyParams = z.object({ key: z.string().max(100) });
const RunsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
const ValidateInput = z.object({ graph: WorkflowGraphSchema });

const paramsOf = <S extends z.ZodType>(ctx: AppContext, schema: S): z.infer<S> =>
  schema.parse((ctx as AppContext & { params: unknown }).params);

async function requireWorkflow(db: Knex, id: number, lock = false): Promise<WorkflowRecordRow> {
  const row = await findWorkflow(db, id, lock);
  if (!row) throw notFound(wm.builder.notFound);
  return row;
}

async function answer(ctx: AppContext, db: Knex, id: number, status = 200): Promise<void> {
  ctx.status = status;
  ctx.body = await workflowDetail(ctx.services, db, await requireWorkflow(db, id));
}

async function changed(
  ctx: AppContext,
  db: Knex,
  action: Parameters<typeof audit>[2]['action'],
  id: number,
  details = {},
) {
  await audit(db, ctx, { action, outcome: 'success', entityType: 'workflow', entityId: id, details });
}

async function insertWorkflow(
  trx: Knex,
  values: {
    name: string;
    description: string;
    graph: WorkflowGraph;
    rateLimitPerHour: number;
    status?: string;
    libraryKey?: string | null;
  },
  userId: number | null,
): Promise<number> {
  const [row] = await trx('workflows')
    .insert({
      name: values.name || wm.builder.untitled,
      description: values.description,
      graph: JSON.stringify(values.graph),
      trigger_kind: triggerKindOf(values.graph),
      rate_limit_per_hour: values.rateLimitPerHour,
      status: values.status ?? 'draft',
      library_key: values.libraryKey ?? null,
      webhook_salt: newWebhookSalt(),
      created_by: userId,
    })
    .returning('id');
  return (row as { id: number }).id;
}

async function list(ctx: AppContext): Promise<void> {
  ctx.body = { workflows: await listWorkflows(ctx.services.db.knex) };
}

async function read(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  await answer(ctx, ctx.services.db.knex, id);
}

async function create(ctx: Input<WorkflowDraftInput>): Promise<void> {
  const input = ctx.state.input;
  const knex = ctx.services.db.knex;
  const id = await knex.transaction(async (trx) => {
    await savableIssues(ctx.services, trx, input.graph);
    const created = await insertWorkflow(trx, input, ctx.state.user?.id ?? null);
    await changed(ctx, trx, 'workflow.create', created);
    return created;
  });
  await answer(ctx, knex, id, 201);
}

async function save(ctx: Input<WorkflowDraftInput>): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const input = ctx.state.input;
  const knex = ctx.services.db.knex;
  await knex.transaction(async (trx) => {
    await requireWorkflow(trx, id, true);
    await savableIssues(ctx.services, trx, input.graph);
    await trx('workflows')
      .where({ id })
      .update({
        name: input.name || wm.builder.untitled,
        description: input.description,
        graph: JSON.stringify(input.graph),
        trigger_kind: triggerKindOf(input.graph),
        rate_limit_per_hour: input.rateLimitPerHour,
        updated_at: trx.fn.now(),
      });
    await changed(ctx, trx, 'workflow.update', id);
  });
  await answer(ctx, knex, id);
}

async function validateGraph(ctx: Input<z.infer<typeof ValidateInput>>): Promise<void> {
  const issues = await checkGraph(ctx.services, ctx.services.db.knex, ctx.state.input.graph);
  const view: WorkflowValidationView = { valid: issues.length === 0, issues, byNode: issuesByNode(issues) };
  ctx.body = view;
}

async function enable(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const knex = ctx.services.db.knex;
  await knex.transaction(async (trx) => {
    const row = await requireWorkflow(trx, id, true);
    const issues = await checkGraph(ctx.services, trx, row.graph);
    if (issues.length > 0) throw graphProblem(issues);
    const latest = row.version
      ? await trx('workflow_versions').where({ workflow_id: id, version: row.version }).first('graph')
      : undefined;
    let version = row.version;
    // A new version when the draft differs from the one in use: running runs keep theirs.
    if (!latest || JSON.stringify(latest.graph) !== JSON.stringify(row.graph)) {
      version = (row.version ?? 0) + 1;
      await trx('workflow_versions').insert({
        workflow_id: id,
        version,
        graph: JSON.stringify(row.graph),
        trigger_kind: triggerKindOf(row.graph),
        created_by: ctx.state.user?.id ?? null,
      });
    }
    await trx('workflows')
      .where({ id })
      .update({
        status: 'enabled',
        version,
        enabled_by: ctx.state.user?.id ?? null,
        enabled_at: row.status === 'enabled' && row.enabled_at ? row.enabled_at : trx.fn.now(),
        updated_at: trx.fn.now(),
      });
    await changed(ctx, trx, 'workflow.enable', id, { version });
  });
  await answer(ctx, knex, id);
}

async function disable(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const knex = ctx.services.db.knex;
  await knex.transaction(async (trx) => {
    await requireWorkflow(trx, id, true);
    await trx('workflows').where({ id }).update({ status: 'disabled', updated_at: trx.fn.now() });
    await changed(ctx, trx, 'workflow.disable', id);
  });
  await answer(ctx, knex, id);
}

async function duplicate(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const knex = ctx.services.db.knex;
  const copy = await knex.transaction(async (trx) => {
    const row = await requireWorkflow(trx, id);
    const created = await insertWorkflow(
      trx,
      {
        name: wm.copyName(row.name),
        description: row.description,
        graph: row.graph,
        rateLimitPerHour: row.rate_limit_per_hour,
        libraryKey: row.library_key,
      },
      ctx.state.user?.id ?? null,
    );
    await changed(ctx, trx, 'workflow.duplicate', created, { from: id });
    return created;
  });
  await answer(ctx, knex, copy, 201);
}

async function remove(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  await ctx.services.db.knex.transaction(async (trx) => {
    const row = await requireWorkflow(trx, id, true);
    if (row.version !== null) throw conflict(wm.deleteNotDraft);
    await trx('workflows').where({ id }).delete();
    await changed(ctx, trx, 'workflow.delete', id);
  });
  ctx.status = 204;
}

async function versions(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const db = ctx.services.db.knex;
  await requireWorkflow(db, id);
  const rows = await db('workflow_versions as v')
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .where('v.workflow_id', id)
    .orderBy('v.version', 'desc')
    .select('v.version', 'v.graph', 'v.created_at', 'u.username');
  ctx.body = {
    versions: rows.map((row: Record<string, unknown>) => ({
      version: row.version,
      graph: row.graph,
      createdAt: new Date(row.created_at as string).toISOString(),
      createdBy: (row.username as string | null) ?? null,
    })),
  };
}

async function runs(ctx: Input<z.infer<typeof RunsQuery>>): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const db = ctx.services.db.knex;
  await requireWorkflow(db, id);
  ctx.body = { runs: await listRuns(db, id, ctx.state.input.limit) };
}

async function run(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const detail = await runDetail(ctx.services.db.knex, id);
  if (!detail) throw notFound(wm.runs.notFound);
  ctx.body = detail;
}

async function retry(ctx: AppContext): Promise<void> {
  const { id, stepId } = paramsOf(ctx, StepParams);
  const knex = ctx.services.db.knex;
  await knex.transaction(async (trx) => {
    const found = await trx('workflow_runs').where({ id }).first('workflow_id');
    if (!found) throw notFound(wm.runs.notFound);
    if (!(await ctx.services.workflows.retryStep(trx, id, stepId))) throw conflict(wm.runs.notRetryable);
    await changed(ctx, trx, 'workflow.step_retry', found.workflow_id, { run: id, step: stepId });
  });
  ctx.services.jobs.notify('workflow-step');
  const detail = await runDetail(knex, id);
  ctx.body = detail;
}

// --- Library ---------------------------------------------------------------------------------

async function templateIdsByKey(db: Knex): Promise<Map<string, number>> {
  const rows = (await db('message_templates').whereNotNull('key').select('id', 'key')) as {
    id: number;
    key: string;
  }[];
  return new Map(rows.map((row) => [row.key, row.id]));
}

async function library(ctx: AppContext): Promise<void> {
  const db = ctx.services.db.knex;
  const ids = await templateIdsByKey(db);
  const installed = (await db('workflows').whereNotNull('library_key').select('id', 'library_key')) as {
    id: number;
    library_key: string;
  }[];
  const workflows: LibraryItemView[] = LIBRARY_WORKFLOWS.map((item) => {
    const graph = resolveLibraryGraph(item, ids);
    return {
      key: item.key,
      name: item.name,
      description: item.description,
      sends: item.sends,
      trigger: triggerNodeOf(graph)?.trigger ?? { kind: 'booking.created' },
      graph,
      installedWorkflowIds: installed.filter((row) => row.library_key === item.key).map((row) => row.id),
    };
  });
  ctx.body = { workflows };
}

/** Installs a library workflow as a disabled copy; returns its id. */
export async function installLibraryWorkflow(
  services: AppServices,
  trx: Knex,
  key: string,
  userId: number | null,
): Promise<number> {
  const item = libraryWorkflow(key);
  if (!item) throw notFound(wm.library.notFound);
  const graph = resolveLibraryGraph(item, await templateIdsByKey(trx));
  await savableIssues(services, trx, graph);
  return insertWorkflow(
    trx,
    {
      name: item.name,
      description: item.description,
      graph,
      rateLimitPerHour: 100,
      status: 'disabled',
      libraryKey: item.key,
    },
    userId,
  );
}

async function install(ctx: AppContext): Promise<void> {
  const { key } = paramsOf(ctx, KeyParams);
  const knex = ctx.services.db.knex;
  const id = await knex.transaction(async (trx) => {
    const created = await installLibraryWorkflow(ctx.services, trx, key, ctx.state.user?.id ?? null);
    await changed(ctx, trx, 'workflow.install', created, { library: key });
    return created;
  });
  await answer(ctx, knex, id, 201);
}

async function users(ctx: AppContext): Promise<void> {
  const rows = await ctx.services.db
    .knex('users')
    .where({ is_active: true })
    .orderBy('username')
    .select('id', 'username', 'role');
  ctx.body = { users: rows };
}

// --- Dry run ---------------------------------------------------------------------------------

const RECORD_TABLES = {
  booking: 'bookings',
  referral: 'referrals',
  patient: 'patients',
  kit: 'kits',
  form_submission: 'form_submissions',
} as const;

/** Rows of a table the caller may read (none for a physician outside their own). */
function scoped(ctx: AppContext, query: Knex.QueryBuilder, table: string): Knex.QueryBuilder {
  const ability = ctx.state.ability;
  const subjectName = table === 'referrals' ? 'Referral' : table === 'kits' ? 'Kit' : 'Patient';
  const scope: RecordScope | undefined = ability
    ? ability.can('read', subjectName)
      ? { kind: 'all' }
      : { kind: 'none' }
    : { kind: 'none' };
  if (scope.kind === 'none') query.whereRaw('false');
  return query;
}

async function samples(ctx: AppContext): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const db = ctx.services.db.knex;
  const row = await requireWorkflow(db, id);
  const kind = triggerKindOf(row.graph);
  const type = kind ? recordTypeOf(kind) : null;
  let records: DryRunSample[] = [];
  if (type) {
    const table = RECORD_TABLES[type];
    const rows = (await scoped(ctx, db(table).orderBy('id', 'desc').limit(20), table).select('*')) as Record<
      string,
      unknown
    >[];
    records = rows.map((r) => ({ id: Number(r.id), label: sampleLabel(type, r) }));
  }
  ctx.body = { records };
}

function sampleLabel(type: keyof typeof RECORD_TABLES, row: Record<string, unknown>): string {
  switch (type) {
    case 'booking':
      return `Booking #${row.id} · ${row.kit_type} · ${row.start_date} · ${row.status}`;
    case 'referral':
      return `Referral #${row.id} · ${row.urgency} · ${row.status}`;
    case 'patient':
      return `Patient #${row.id} · ${row.lead_source}`;
    case 'kit':
      return `Kit ${row.kit_id} · ${row.type} · ${row.status}`;
    case 'form_submission':
      return `Form submission #${row.id}`;
  }
}

async function dryRun(ctx: Input<WorkflowDryRunInput>): Promise<void> {
  const { id } = paramsOf(ctx, IdParams);
  const { services } = ctx;
  const db = services.db.knex;
  const row = await requireWorkflow(db, id);
  const graph = ctx.state.input.graph ?? row.graph;
  const issues = await checkGraph(services, db, graph);
  const triggerNode = triggerNodeOf(graph);
  const now = services.workflows.now();
  const facts = await practiceFacts(services, db, now);
  const kind = triggerNode?.trigger.kind;
  const type = kind ? recordTypeOf(kind) : null;
  const recordId = ctx.state.input.recordId;
  if (type && recordId === null)
    throw badRequest(wm.dryRun.chooseRecord, { fields: { recordId: wm.dryRun.chooseRecord } });
  const record = type && recordId !== null ? { type, id: recordId } : null;
  if (record) {
    const found = await scoped(
      ctx,
      db(RECORD_TABLES[record.type]).where({ id: record.id }),
      RECORD_TABLES[record.type],
    ).first('id');
    if (!found) throw notFound(wm.runs.recordMissing);
  }
  const steps: DryRunStep[] = [];
  if (triggerNode && kind) {
    const current =
      record && (record.type === 'booking' || record.type === 'referral')
        ? (
            (await db(RECORD_TABLES[record.type]).where({ id: record.id }).first('status')) as {
              status: string;
            }
          ).status
        : undefined;
    const input: Record<string, unknown> = current ? { from: null, to: current } : {};
    const context = await loadRunContext(services, db, kind, record, input, facts);
    if (!context) throw notFound(wm.runs.recordMissing);
    steps.push({
      nodeId: triggerNode.id,
      type: 'trigger',
      label: nodeLabel(triggerNode),
      detail: nodeLabel(triggerNode),
    });
    let at = now.getTime();
    let nodeId = nextNodeId(graph, triggerNode.id);
    const seen = new Set<string>();
    while (nodeId !== undefined && !seen.has(nodeId)) {
      seen.add(nodeId);
      const node = graph.nodes.find((candidate) => candidate.id === nodeId);
      if (!node) break;
      const label = nodeLabel(node);
      if (node.type === 'condition') {
        const rules = logicToRules(node.logic)?.rules ?? [];
        const decision = evaluateCondition(node.logic, context.data) ? 'yes' : 'no';
        steps.push({
          nodeId: node.id,
          type: 'condition',
          label,
          decision,
          detail: decision === 'yes' ? wm.dryRun.decisionYes : wm.dryRun.decisionNo,
          rules: rules.map((rule) => {
            const [group, key] = rule.field.split('.') as [string, string];
            return {
              field: rule.field,
              operator: rule.operator,
              value: rule.value,
              actual: context.data[group]?.[key] ?? null,
              passed: evaluateCondition(ruleToLogic(rule), context.data),
            };
          }),
        });
        nodeId = nextNodeId(graph, node.id, decision);
        continue;
      }
      if (node.type === 'wait') {
        at = waitEnd(node.wait, at, facts.calendar).getTime();
        const until = new Date(at).toISOString();
        steps.push({ nodeId: node.id, type: 'wait', label, until, detail: wm.dryRun.wouldWait(until) });
      } else if (node.type === 'action') {
        const action = node.action;
        if (action.kind === 'send_email' || action.kind === 'send_sms') {
          const channel = action.kind === 'send_email' ? 'email' : 'sms';
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
          const to = recipient ? maskRecipient(recipient) : null;
          const step: Extract<DryRunStep, { type: 'message' }> = {
            nodeId: node.id,
            type: 'message',
            label,
            channel,
            to,
            detail: to
              ? wm.dryRun.wouldSend(channel === 'email' ? 'email' : 'SMS', to)
              : wm.dryRun.noRecipient,
          };
          const template = action.templateId === null ? undefined : await findTemplate(db, action.templateId);
          const version = template
            ? await templateVersion(db, template.id, template.current_version)
            : undefined;
          if (!template || !version) step.error = wm.validation.chooseTemplate;
          else
            try {
              Object.assign(
                step,
                renderTemplate(
                  {
                    channel,
                    trigger: template.trigger,
                    subject: version.subject ?? undefined,
                    html: version.html ?? undefined,
                    text: version.text ?? undefined,
                    body: version.body ?? undefined,
                  },
                  context.data,
                ),
              );
            } catch {
              step.error = wm.dryRun.renderFailed;
            }
          if (!to) step.error ??= wm.dryRun.noRecipient;
          steps.push(step);
        } else if (action.kind === 'notify') {
          const who = action.to === 'user' ? `user #${action.userId}` : `${action.role ?? ''}`;
          steps.push({
            nodeId: node.id,
            type: 'notification',
            label,
            title: safeRender(action.title, context.data),
            body: safeRender(action.body, context.data),
            detail: wm.dryRun.wouldNotify(who),
          });
        } else if (action.kind === 'set_booking_status' || action.kind === 'set_referral_status') {
          const name = `${record?.type === 'referral' ? 'Referral' : 'Booking'} #${record?.id ?? ''}`;
          const from = current ?? '';
          const to = action.status ?? '';
          const allowed =
            action.kind === 'set_booking_status'
              ? record?.type === 'booking' && canTransitionBooking(from as BookingStatus, to as BookingStatus)
              : record?.type === 'referral' &&
                canTransition(from as ReferralStatus, to as ReferralStatus, 'manual');
          steps.push({
            nodeId: node.id,
            type: 'status',
            label,
            allowed,
            detail: allowed
              ? wm.dryRun.wouldChangeStatus(name, from, to)
              : wm.dryRun.statusNotAllowed(name, from, to),
          });
        } else if (action.kind === 'add_note') {
          const name = `${record?.type === 'referral' ? 'Referral' : 'Booking'} #${record?.id ?? ''}`;
          steps.push({
            nodeId: node.id,
            type: 'note',
            label,
            text: safeRender(action.text, context.data),
            detail: wm.dryRun.wouldAddNote(name),
          });
        } else if (action.kind === 'webhook') {
          steps.push({
            nodeId: node.id,
            type: 'webhook',
            label,
            url: action.url,
            payload: {
              event: kind,
              workflow: { id: row.id, name: row.name },
              record,
              data: webhookData(context),
            },
            detail: wm.dryRun.wouldCallWebhook(action.url),
          });
        }
      }
      nodeId = nextNodeId(graph, node.id);
    }
  }
  await audit(db, ctx, {
    action: 'workflow.test',
    outcome: 'success',
    entityType: record?.type ?? 'workflow',
    entityId: record?.id ?? id,
    details: { workflow: id },
  });
  const result: DryRunResult = { dryRun: true, record, steps, issues };
  ctx.body = result;
}

function safeRender(source: string, data: Record<string, unknown>): string {
  try {
    return renderText(source, data);
  } catch {
    return source;
  }
}

export function workflowRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/workflows', can('read', 'Workflow'), list);
  router.post('/api/workflows', can('create', 'Workflow'), validate(WorkflowDraftInput), create);
  router.post('/api/workflows/validate', can('read', 'Workflow'), validate(ValidateInput), validateGraph);
  router.get('/api/workflows/:id', can('read', 'Workflow'), validate(IdParams, 'params'), read);
  router.put('/api/workflows/:id', can('update', 'Workflow'), validate(WorkflowDraftInput), save);
  router.delete('/api/workflows/:id', can('delete', 'Workflow'), validate(IdParams, 'params'), remove);
  router.post('/api/workflows/:id/enable', can('update', 'Workflow'), validate(IdParams, 'params'), enable);
  router.post('/api/workflows/:id/disable', can('update', 'Workflow'), validate(IdParams, 'params'), disable);
  router.post(
    '/api/workflows/:id/duplicate',
    can('create', 'Workflow'),
    validate(IdParams, 'params'),
    duplicate,
  );
  router.get('/api/workflows/:id/versions', can('read', 'Workflow'), validate(IdParams, 'params'), versions);
  router.get('/api/workflows/:id/runs', can('read', 'Workflow'), validate(RunsQuery, 'query'), runs);
  router.get('/api/workflows/:id/samples', can('update', 'Workflow'), validate(IdParams, 'params'), samples);
  router.post('/api/workflows/:id/test', can('update', 'Workflow'), validate(WorkflowDryRunInput), dryRun);
  router.get('/api/workflow-runs/:id', can('read', 'Workflow'), validate(IdParams, 'params'), run);
  router.post(
    '/api/workflow-runs/:id/steps/:stepId/retry',
    can('update', 'Workflow'),
    validate(StepParams, 'params'),
    retry,
  );
  router.get('/api/workflow-library', can('read', 'Workflow'), library);
  router.post(
    '/api/workflow-library/:key/install',
    can('create', 'Workflow'),
    validate(KeyParams, 'params'),
    install,
  );
  router.get('/api/workflow-users', can('update', 'Workflow'), users);
  return router;
}
