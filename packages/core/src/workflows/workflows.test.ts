import { describe, expect, it } from 'vitest';
import { DEFAULT_PRACTICE_CALENDAR } from '../clinical/sla.js';
import {
  businessDaysBetween,
  type ConditionRules,
  cronFireTimes,
  cronProblem,
  evaluateCondition,
  fieldsFor,
  isSavable,
  issuesByNode,
  LIBRARY_WORKFLOWS,
  logicToRules,
  workflowMessages as m,
  nodeLabel,
  resolveLibraryGraph,
  rulesToLogic,
  sampleContextFor,
  type TemplateFacts,
  triggerOfTopic,
  validateWorkflow,
  WorkflowDraftInput,
  type WorkflowGraph,
  waitEnd,
} from '../index.js';

const calendar = { ...DEFAULT_PRACTICE_CALENDAR, timeZone: 'America/New_York' };

const graphOf = (nodes: unknown[], edges: unknown[]): WorkflowGraph =>
  WorkflowDraftInput.parse({ graph: { nodes, edges } }).graph;

const bookingCreated = { id: 't', type: 'trigger', trigger: { kind: 'booking.created' } };

describe('conditions', () => {
  const rules: ConditionRules = {
    match: 'all',
    rules: [
      { field: 'kit.type', operator: 'equals', value: 'Somfit' },
      { field: 'booking.status', operator: 'in', value: ['confirmed', 'pending'] },
      { field: 'booking.testType', operator: 'not_in', value: ['3-day'] },
      { field: 'patient.name', operator: 'contains', value: 'Riv' },
      { field: 'booking.id', operator: 'greater_than', value: 0 },
      { field: 'booking.startDate', operator: 'before', value: '2040-01-01' },
      { field: 'booking.returnDate', operator: 'after', value: '2020-01-01' },
      { field: 'patient.lastName', operator: 'is_not_empty', value: null },
    ],
  };

  it('round-trips every operator through JSON Logic', () => {
    expect(logicToRules(rulesToLogic(rules))).toEqual(rules);
    const any: ConditionRules = {
      match: 'any',
      rules: [{ field: 'kit.id', operator: 'is_empty', value: null }],
    };
    expect(logicToRules(rulesToLogic(any))).toEqual(any);
    expect(logicToRules({ '+': [1, 2] })).toBeNull();
  });

  it('evaluates against a run context', () => {
    const data = sampleContextFor('booking.created');
    expect(evaluateCondition(rulesToLogic(rules), data)).toBe(true);
    const zMachine = { ...data, kit: { ...data.kit, type: 'Z-Machine' } };
    expect(evaluateCondition(rulesToLogic(rules), zMachine)).toBe(false);
    expect(evaluateCondition(rulesToLogic({ ...rules, match: 'any' }), zMachine)).toBe(true);
  });
});

describe('validateWorkflow', () => {
  it('accepts a connected graph and points at the node of each problem', () => {
    const ok = graphOf(
      [
        bookingCreated,
        {
          id: 'c',
          type: 'condition',
          logic: rulesToLogic({
            match: 'all',
            rules: [{ field: 'kit.type', operator: 'equals', value: 'Somfit' }],
          }),
        },
        {
          id: 'n',
          type: 'action',
          action: { kind: 'notify', role: 'scheduler', title: 'Booking #{{ booking.id }}' },
        },
      ],
      [
        { id: 'e1', source: 't', target: 'c' },
        { id: 'e2', source: 'c', target: 'n', sourceHandle: 'yes' },
      ],
    );
    expect(validateWorkflow(ok)).toEqual([]);

    const bad = graphOf(
      [
        bookingCreated,
        {
          id: 'c',
          type: 'condition',
          logic: rulesToLogic({
            match: 'all',
            rules: [{ field: 'booking.colour', operator: 'equals', value: 'red' }],
          }),
        },
        { id: 'loose', type: 'wait', wait: { mode: 'duration', hours: 2, days: 0 } },
      ],
      [{ id: 'e1', source: 't', target: 'c' }],
    );
    const issues = validateWorkflow(bad);
    expect(issuesByNode(issues)).toEqual({
      c: [m.validation.conditionNoBranch, m.validation.unknownField('booking.colour')],
      loose: [m.validation.notConnected],
    });
    expect(isSavable(issues)).toBe(false);
  });

  it('finds cycles, extra triggers, bad cron and insecure webhooks', () => {
    const graph = graphOf(
      [
        { id: 't', type: 'trigger', trigger: { kind: 'schedule', cron: '61 * * * *' } },
        { id: 't2', type: 'trigger', trigger: { kind: 'patient.created' } },
        { id: 'a', type: 'action', action: { kind: 'webhook', url: 'http://example.com/hook' } },
        { id: 'b', type: 'action', action: { kind: 'webhook', url: 'http://localhost:9000/hook' } },
      ],
      [
        { id: 'e1', source: 't', target: 'a' },
        { id: 'e2', source: 'a', target: 'b' },
        { id: 'e3', source: 'b', target: 'a' },
      ],
    );
    const byNode = issuesByNode(validateWorkflow(graph, { allowLocalWebhooks: true }));
    expect(byNode.t?.[0]).toMatch(/^Invalid cron schedule/);
    expect(byNode.t2).toContain(m.validation.manyTriggers);
    expect(byNode.a).toEqual([m.validation.cycle, m.validation.urlNotHttps]);
    expect(byNode.b).toBeUndefined();
    expect(issuesByNode(validateWorkflow(graph)).b).toEqual([m.validation.urlNotHttps]);
  });

  it('keeps unfinished work savable but not enableable', () => {
    const graph = graphOf(
      [bookingCreated, { id: 'e', type: 'action', action: { kind: 'send_email' } }],
      [{ id: 'e1', source: 't', target: 'e' }],
    );
    const issues = validateWorkflow(graph);
    expect(issues).toEqual([{ nodeId: 'e', severity: 'incomplete', message: m.validation.chooseTemplate }]);
    expect(isSavable(issues)).toBe(true);
    expect(validateWorkflow({ nodes: [], edges: [] })).toEqual([
      { nodeId: null, severity: 'incomplete', message: m.validation.noTrigger },
    ]);
  });

  it('checks templates: existence, channel and the variables the trigger provides', () => {
    const graph = graphOf(
      [
        { id: 't', type: 'trigger', trigger: { kind: 'patient.created' } },
        { id: 'e', type: 'action', action: { kind: 'send_email', templateId: 1 } },
        { id: 's', type: 'action', action: { kind: 'send_sms', templateId: 2 } },
        { id: 'x', type: 'action', action: { kind: 'send_email', templateId: 3 } },
      ],
      [
        { id: 'e1', source: 't', target: 'e' },
        { id: 'e2', source: 'e', target: 's' },
        { id: 'e3', source: 's', target: 'x' },
      ],
    );
    const templates = new Map<number, TemplateFacts>([
      [1, { channel: 'email', active: true, variables: ['patient.firstName', 'booking.startDate'] }],
      [2, { channel: 'email', active: true, variables: [] }],
    ]);
    expect(issuesByNode(validateWorkflow(graph, { templates }))).toEqual({
      e: [m.validation.templateVariables(['booking.startDate'])],
      s: [m.validation.templateWrongChannel('sms')],
      x: [m.validation.templateMissing],
    });
  });
});

describe('library', () => {
  it('has the seven workflows, each valid once its templates are resolved', () => {
    expect(LIBRARY_WORKFLOWS.map((w) => w.key)).toEqual([
      'pickup-reminder',
      'return-reminder',
      'overdue-return-escalation',
      'referral-acknowledgement',
      'report-ready',
      'sla-at-risk-alert',
      'kit-cleaning-due',
    ]);
    let next = 1;
    for (const item of LIBRARY_WORKFLOWS) {
      const ids = new Map(Object.values(item.templateKeys).map((key) => [key, next++]));
      const graph = resolveLibraryGraph(item, ids);
      expect(WorkflowDraftInput.parse({ name: item.name, graph }).graph).toEqual(graph);
      expect(validateWorkflow(graph), item.key).toEqual([]);
      for (const node of graph.nodes) expect(nodeLabel(node)).not.toBe('');
    }
  });
});

describe('time', () => {
  it('validates cron and lists fire times in the practice time zone', () => {
    expect(cronProblem('0 9 * * 1-5')).toBeNull();
    expect(cronProblem('0 9 * *')).toMatch(/five fields/);
    const fires = cronFireTimes(
      '0 9 * * 1-5',
      'America/New_York',
      Date.parse('2026-11-26T00:00:00Z'),
      Date.parse('2026-11-30T23:00:00Z'),
    );
    // Thursday, Friday, then Monday at 09:00 in New York (14:00 UTC in winter).
    expect(fires.map((d) => d.toISOString())).toEqual([
      '2026-11-26T14:00:00.000Z',
      '2026-11-27T14:00:00.000Z',
      '2026-11-30T14:00:00.000Z',
    ]);
  });

  it('counts business days and ends waits', () => {
    expect(businessDaysBetween('2026-11-26', '2026-11-30', calendar)).toBe(2);
    const thursday10 = Date.parse('2026-11-26T15:00:00Z');
    expect(
      waitEnd({ mode: 'duration', days: 1, hours: 2, minutes: 0 }, thursday10, calendar).toISOString(),
    ).toBe('2026-11-27T17:00:00.000Z');
    expect(
      waitEnd(
        { mode: 'until_business_time', businessDays: 0, time: '09:00' },
        thursday10,
        calendar,
      ).toISOString(),
    ).toBe('2026-11-27T14:00:00.000Z');
    expect(
      waitEnd(
        { mode: 'until_business_time', businessDays: 2, time: '09:00' },
        thursday10,
        calendar,
      ).toISOString(),
    ).toBe('2026-11-30T14:00:00.000Z');
  });
});

describe('triggers', () => {
  it('maps outbox topics and provides fields', () => {
    expect(triggerOfTopic('booking.created')).toBe('booking.created');
    expect(triggerOfTopic('delivery.requested')).toBeUndefined();
    expect(fieldsFor('schedule').map((f) => f.path)).toContain('practice.name');
  });
});
