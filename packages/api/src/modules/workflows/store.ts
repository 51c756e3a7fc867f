import { createHmac, randomBytes } from 'node:crypto';
import {
  analyseTemplate,
  isSavable,
  issuesByNode,
  nodeLabel,
  type TemplateFacts,
  templateIdsOf,
  triggerNodeOf,
  userIdsOf,
  validateWorkflow,
  type WorkflowDetail,
  type WorkflowGraph,
  type WorkflowIssue,
  type WorkflowListItem,
  type WorkflowNodeType,
  type WorkflowRunDetail,
  type WorkflowRunListItem,
  type WorkflowRunStatus,
  type WorkflowStatus,
  type WorkflowStepStatus,
  type WorkflowTriggerKind,
  workflowMessages as wm,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppServices } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { deriveSecretKey } from '../../security/secrets.js';

// Data access of workflows: the rows, the views the API answers with, and validation with the
// facts only the database knows (which templates and users exist).

export interface WorkflowRecordRow {
  id: number;
  name: string;
  description: string;
  status: WorkflowStatus;
  graph: WorkflowGraph;
  trigger_kind: WorkflowTriggerKind | null;
  version: number | null;
  rate_limit_per_hour: number;
  library_key: string | null;
  webhook_salt: string;
  created_by: number | null;
  enabled_by: number | null;
  enabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * A workflow's webhook signing secret: derived from the server secret and the workflow's random
 * salt, so nothing secret is stored and every API process computes the same one.
 */
export function webhookSecretOf(services: AppServices, salt: string): string {
  const key = deriveSecretKey(services.config.secret, 'workflow-webhooks');
  return `whsec_${createHmac('sha256', key).update(salt).digest('base64url')}`;
}

/** The salt of a new workflow's webhook secret. */
export const newWebhookSalt = (): string => randomBytes(16).toString('base64url');

/** The facts validation needs from the database: the graph's templates and users. */
export async function validationContext(services: AppServices, db: Knex, graph: WorkflowGraph) {
  const templates = new Map<number, TemplateFacts>();
  const templateIds = templateIdsOf(graph);
  if (templateIds.length > 0) {
    const rows = await db('message_templates as t')
      .join('message_template_versions as v', (j) =>
        j.on('v.template_id', 't.id').andOn('v.version', 't.current_version'),
      )
      .whereIn('t.id', templateIds)
      .select('t.id', 't.channel', 't.trigger', 't.active', 'v.subject', 'v.html', 'v.text', 'v.body');
    for (const row of rows) {
      const analysis = analyseTemplate({
        channel: row.channel,
        trigger: row.trigger,
        subject: row.subject ?? undefined,
        html: row.html ?? undefined,
        text: row.text ?? undefined,
        body: row.body ?? undefined,
      });
      templates.set(row.id, { channel: row.channel, active: row.active, variables: analysis.variables });
    }
  }
  const userIds = userIdsOf(graph);
  const users = new Set<number>(
    userIds.length > 0
      ? (
          (await db('users').whereIn('id', userIds).where({ is_active: true }).select('id')) as {
            id: number;
          }[]
        ).map((row) => row.id)
      : [],
  );
  return { templates, users, allowLocalWebhooks: services.config.nodeEnv !== 'production' };
}

export async function checkGraph(
  services: AppServices,
  db: Knex,
  graph: WorkflowGraph,
): Promise<WorkflowIssue[]> {
  return validateWorkflow(graph, await validationContext(services, db, graph));
}

/** A 400 naming each problem at its node. */
export function graphProblem(issues: readonly WorkflowIssue[]) {
  return badRequest(wm.validation.invalidGraph, {
    issues: issues.map((issue) => ({
      path: issue.nodeId === null ? 'graph' : `nodes.${issue.nodeId}`,
      message: issue.message,
    })),
    nodeIssues: issues,
    byNode: issuesByNode(issues),
  });
}

/** Refuses a draft with bad input (an `error` issue); returns its problems otherwise. */
export async function savableIssues(
  services: AppServices,
  db: Knex,
  graph: WorkflowGraph,
): Promise<WorkflowIssue[]> {
  const issues = await checkGraph(services, db, graph);
  if (!isSavable(issues)) throw graphProblem(issues.filter((issue) => issue.severity === 'error'));
  return issues;
}

export const triggerKindOf = (graph: WorkflowGraph) => triggerNodeOf(graph)?.trigger.kind ?? null;

interface Stats {
  workflow_id: number;
  runs7d: number;
  failures7d: number;
  last_run_at: Date | null;
  last_status: WorkflowRunStatus | null;
}

async function statsOf(db: Knex, ids: number[]): Promise<Map<number, Stats>> {
  if (ids.length === 0) return new Map();
  const since = new Date(Date.now() - 7 * 86_400_000);
  const counts = (await db('workflow_runs')
    .whereIn('workflow_id', ids)
    .where('started_at', '>=', since)
    .groupBy('workflow_id')
    .select(
      'workflow_id',
      db.raw('count(*)::int as runs'),
      db.raw("count(*) filter (where status = 'failed')::int as failures"),
    )) as { workflow_id: number; runs: number; failures: number }[];
  const last = (await db('workflow_runs')
    .distinctOn('workflow_id')
    .whereIn('workflow_id', ids)
    .orderBy([
      { column: 'workflow_id' },
      { column: 'started_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('workflow_id', 'started_at', 'status')) as {
    workflow_id: number;
    started_at: Date;
    status: WorkflowRunStatus;
  }[];
  const out = new Map<number, Stats>();
  for (const id of ids)
    out.set(id, { workflow_id: id, runs7d: 0, failures7d: 0, last_run_at: null, last_status: null });
  for (const row of counts)
    Object.assign(out.get(row.workflow_id) ?? {}, { runs7d: row.runs, failures7d: row.failures });
  for (const row of last)
    Object.assign(out.get(row.workflow_id) ?? {}, { last_run_at: row.started_at, last_status: row.status });
  return out;
}

async function publishedGraphs(db: Knex, rows: WorkflowRecordRow[]): Promise<Map<number, WorkflowGraph>> {
  const withVersion = rows.filter((row) => row.version !== null);
  if (withVersion.length === 0) return new Map();
  const versions = (await db('workflow_versions')
    .whereIn(
      ['workflow_id', 'version'],
      withVersion.map((row) => [row.id, row.version as number]),
    )
    .select('workflow_id', 'graph')) as { workflow_id: number; graph: WorkflowGraph }[];
  return new Map(versions.map((v) => [v.workflow_id, v.graph]));
}

function listItem(
  row: WorkflowRecordRow,
  stats: Stats | undefined,
  published: WorkflowGraph | undefined,
): WorkflowListItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    trigger: triggerNodeOf(row.graph)?.trigger ?? null,
    status: row.status,
    version: row.version,
    hasUnpublishedChanges: row.version !== null && JSON.stringify(published) !== JSON.stringify(row.graph),
    libraryKey: row.library_key,
    lastRunAt: iso(stats?.last_run_at),
    lastRunStatus: stats?.last_status ?? null,
    runs7d: stats?.runs7d ?? 0,
    failures7d: stats?.failures7d ?? 0,
    updatedAt: iso(row.updated_at) as string,
  };
}

export async function listWorkflows(db: Knex): Promise<WorkflowListItem[]> {
  const rows = (await db('workflows').orderBy([{ column: 'name' }, { column: 'id' }])) as WorkflowRecordRow[];
  const stats = await statsOf(
    db,
    rows.map((row) => row.id),
  );
  const published = await publishedGraphs(db, rows);
  return rows.map((row) => listItem(row, stats.get(row.id), published.get(row.id)));
}

export async function findWorkflow(
  db: Knex,
  id: number,
  lock = false,
): Promise<WorkflowRecordRow | undefined> {
  const query = db('workflows').where({ id });
  if (lock) query.forUpdate();
  return query.first();
}

export async function workflowDetail(
  services: AppServices,
  db: Knex,
  row: WorkflowRecordRow,
): Promise<WorkflowDetail> {
  const stats = await statsOf(db, [row.id]);
  const published = await publishedGraphs(db, [row]);
  return {
    ...listItem(row, stats.get(row.id), published.get(row.id)),
    graph: row.graph,
    rateLimitPerHour: row.rate_limit_per_hour,
    issues: await checkGraph(services, db, row.graph),
    webhookSecret: webhookSecretOf(services, row.webhook_salt),
    createdAt: iso(row.created_at) as string,
    enabledAt: iso(row.enabled_at),
  };
}

interface RunRecordRow {
  id: number;
  workflow_id: number;
  version: number;
  status: WorkflowRunStatus;
  trigger_kind: WorkflowTriggerKind;
  record_type: string | null;
  record_id: number | null;
  input: Record<string, unknown>;
  started_at: Date;
  finished_at: Date | null;
  error: string | null;
}

export function runListItem(row: RunRecordRow): WorkflowRunListItem {
  return {
    id: Number(row.id),
    workflowId: row.workflow_id,
    version: row.version,
    status: row.status,
    triggerKind: row.trigger_kind,
    record: row.record_type && row.record_id ? { type: row.record_type, id: row.record_id } : null,
    startedAt: iso(row.started_at) as string,
    finishedAt: iso(row.finished_at),
    error: row.error,
  };
}

export async function listRuns(db: Knex, workflowId: number, limit: number): Promise<WorkflowRunListItem[]> {
  const rows = (await db('workflow_runs')
    .where({ workflow_id: workflowId })
    .orderBy([
      { column: 'started_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)) as RunRecordRow[];
  return rows.map(runListItem);
}

export async function runDetail(db: Knex, id: number): Promise<WorkflowRunDetail | undefined> {
  const row = (await db('workflow_runs').where({ id }).first()) as RunRecordRow | undefined;
  if (!row) return undefined;
  const workflow = await db('workflows').where({ id: row.workflow_id }).first('name');
  const version = await db('workflow_versions')
    .where({ workflow_id: row.workflow_id, version: row.version })
    .first('graph');
  const graph = (version?.graph ?? { nodes: [], edges: [] }) as WorkflowGraph;
  const steps = await db('workflow_run_steps').where({ run_id: id }).orderBy('id');
  return {
    ...runListItem(row),
    workflowName: workflow?.name ?? '',
    input: row.input,
    graph,
    steps: steps.map((step: Record<string, unknown>) => {
      const node = graph.nodes.find((candidate) => candidate.id === step.node_id);
      return {
        id: Number(step.id),
        nodeId: step.node_id as string,
        nodeType: step.node_type as WorkflowNodeType,
        label: node ? nodeLabel(node) : String(step.node_id),
        status: step.status as WorkflowStepStatus,
        input: (step.input as Record<string, unknown> | null) ?? null,
        output: (step.output as Record<string, unknown> | null) ?? null,
        attempts: Number(step.attempts),
        runAfter: iso(step.run_after as Date | null),
        startedAt: iso(step.started_at as Date | null),
        finishedAt: iso(step.finished_at as Date | null),
        error: (step.error as string | null) ?? null,
      };
    }),
  };
}
