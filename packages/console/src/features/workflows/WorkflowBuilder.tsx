import {
  isSavable,
  issuesByNode,
  workflowMessages as m,
  recordTypeOf,
  validateWorkflow,
  WORKFLOW_RATE_LIMIT,
  type WorkflowDetail,
  type WorkflowDraftInput,
  type WorkflowGraph,
  type WorkflowIssue,
  type WorkflowNodeType,
} from '@wellrest/core';
import {
  AlertCircle,
  CheckCircle2,
  Cloud,
  FlaskConical,
  Loader2,
  Plus,
  Power,
  PowerOff,
  Trash2,
} from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useMediaQuery } from '@/lib/useMediaQuery';
import {
  nodeIssuesOf,
  useDeleteWorkflow,
  useSaveWorkflow,
  useTemplates,
  useWorkflowAction,
  useWorkflowUsers,
} from './api';
import { DryRunDialog } from './DryRunDialog';
import { addNode, connect, disconnect, removeNode, stepLabel, updateNode } from './graph';
import { STATUS_TONE, stepDetail } from './labels';
import { NodePanel, type TemplateOption } from './NodePanel';
import { type AutosaveState, useAutosave } from './useAutosave';
import { WorkflowCanvas } from './WorkflowCanvas';

/** From Tailwind's lg breakpoint the side panel is a column beside the canvas; below it, a sheet. */
const WIDE = '(min-width: 64rem)';

interface Draft {
  name: string;
  description: string;
  graph: WorkflowGraph;
  rateLimitPerHour: number;
}

export function SaveIndicator({
  state,
  problems,
  paused = false,
}: {
  state: AutosaveState;
  problems: number;
  /** The draft has bad input (an error, not unfinished work): it is not saved until that is fixed. */
  paused?: boolean;
}) {
  const b = m.builder;
  if (paused)
    return (
      <span className="flex items-center gap-1 text-xs text-red-700" role="status">
        <AlertCircle className="size-3.5" aria-hidden />
        {b.problems(problems)}
      </span>
    );
  if (state === 'saving' || state === 'pending')
    return (
      <span className="flex items-center gap-1 text-xs text-slate-600" role="status">
        <Loader2 className="size-3.5 animate-spin motion-reduce:animate-none" aria-hidden />
        {b.saving}
      </span>
    );
  if (state === 'failed')
    return (
      <span className="flex items-center gap-1 text-xs text-red-700" role="status">
        <AlertCircle className="size-3.5" aria-hidden />
        {b.saveFailed}
      </span>
    );
  return (
    <span className="flex items-center gap-2 text-xs" role="status">
      <span className="flex items-center gap-1 text-slate-600">
        <Cloud className="size-3.5" aria-hidden />
        {b.saved}
      </span>
      {problems > 0 ? (
        <span className="flex items-center gap-1 text-amber-800">
          <AlertCircle className="size-3.5" aria-hidden />
          {b.problems(problems)}
        </span>
      ) : (
        <span className="flex items-center gap-1 text-green-700">
          <CheckCircle2 className="size-3.5" aria-hidden />
          {b.valid}
        </span>
      )}
    </span>
  );
}

function mergeIssues(local: readonly WorkflowIssue[], server: readonly WorkflowIssue[]): WorkflowIssue[] {
  const out = [...local];
  for (const issue of server)
    if (!out.some((known) => known.nodeId === issue.nodeId && known.message === issue.message))
      out.push(issue);
  return out;
}

/** The builder of one saved workflow: toolbar, canvas, and the panel of the selected step. */
export function WorkflowBuilder({ initial }: { initial: WorkflowDetail }) {
  const ids = useId();
  const wide = useMediaQuery(WIDE);
  const [draft, setDraft] = useState<Draft>({
    name: initial.name,
    description: initial.description,
    graph: initial.graph,
    rateLimitPerHour: initial.rateLimitPerHour,
  });
  const [current, setCurrent] = useState(initial);
  const [serverIssues, setServerIssues] = useState<WorkflowIssue[]>(initial.issues);
  const [selectedId, setSelectedId] = useState<string | null>(
    initial.graph.nodes.find((node) => node.type === 'trigger')?.id ?? null,
  );
  const [sheetOpen, setSheetOpen] = useState(false);
  const [rateText, setRateText] = useState(String(initial.rateLimitPerHour));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeleteWorkflow();
  const [, navigate] = useLocation();
  const [testing, setTesting] = useState(false);
  const templates = useTemplates();
  const templateOptions: TemplateOption[] = templates.data?.items ?? [];
  // The user picker is asked for only once a notification goes to a user.
  const notifiesUser = draft.graph.nodes.some(
    (node) => node.type === 'action' && node.action.kind === 'notify' && node.action.to === 'user',
  );
  const users = useWorkflowUsers(notifiesUser);
  const save = useSaveWorkflow();
  const act = useWorkflowAction();

  const localIssues = useMemo(
    () => validateWorkflow(draft.graph, { allowLocalWebhooks: true }),
    [draft.graph],
  );
  const savable = isSavable(localIssues);
  const issues = useMemo(() => mergeIssues(localIssues, serverIssues), [localIssues, serverIssues]);
  const byNode = useMemo(() => issuesByNode(issues), [issues]);
  const problemCount = issues.length + (draft.name.trim() === '' ? 1 : 0);

  const autosave = useAutosave<Draft>(
    draft,
    async (next) => {
      const body: WorkflowDraftInput = {
        name: next.name,
        description: next.description,
        graph: next.graph,
        rateLimitPerHour: next.rateLimitPerHour,
      };
      try {
        const saved = await save.mutateAsync({ id: initial.id, draft: body });
        setCurrent(saved);
        setServerIssues(saved.issues);
      } catch (error) {
        const nodeIssues = nodeIssuesOf(error);
        if (nodeIssues) setServerIssues(nodeIssues);
        throw error;
      }
    },
    { enabled: savable },
  );

  const triggerNode = draft.graph.nodes.find((node) => node.type === 'trigger');
  const triggerKind = triggerNode?.type === 'trigger' ? triggerNode.trigger.kind : 'booking.created';
  const details = useMemo(() => {
    const out: Record<string, string> = {};
    for (const node of draft.graph.nodes) {
      const detail = stepDetail(node, templateOptions, triggerKind);
      if (detail) out[node.id] = detail;
    }
    return out;
  }, [draft.graph.nodes, templateOptions, triggerKind]);
  const selected = draft.graph.nodes.find((node) => node.id === selectedId) ?? null;

  // What the server said about the graph holds until the graph changes; the answer of the next
  // save brings it back up to date.
  const setGraph = (graph: WorkflowGraph) => {
    setDraft((d) => ({ ...d, graph }));
    setServerIssues([]);
  };

  function select(id: string | null) {
    setSelectedId(id);
    setSheetOpen(id !== null);
  }

  function add(type: WorkflowNodeType) {
    const next = addNode(draft.graph, type, selectedId ?? undefined);
    setGraph(next.graph);
    select(next.id);
  }

  function deleteSelected() {
    if (!selectedId) return;
    setGraph(removeNode(draft.graph, selectedId));
    select(null);
  }

  async function toggle(action: 'enable' | 'disable') {
    await autosave.flush();
    act.mutate(
      { id: initial.id, action },
      {
        onSuccess: (detail) => {
          setCurrent(detail);
          setServerIssues(detail.issues);
          toast(action === 'enable' ? m.enabled : m.disabled);
        },
        onError: (error) => {
          const nodeIssues = nodeIssuesOf(error);
          if (nodeIssues) setServerIssues(nodeIssues);
          toast({
            variant: 'destructive',
            title: action === 'enable' ? m.enable : m.disable,
            description: nodeIssues ? m.enableFailed : errorMessage(error, m.enableFailed),
          });
        },
      },
    );
  }

  const panel = selected ? (
    <NodePanel
      graph={draft.graph}
      node={selected}
      problems={byNode[selected.id] ?? []}
      templates={templateOptions}
      users={users.data?.users ?? []}
      webhookSecret={current.webhookSecret}
      onChange={(node) => setGraph(updateNode(draft.graph, node))}
      onConnect={(branch, target) =>
        setGraph(
          target === null
            ? disconnect(draft.graph, selected.id, branch)
            : connect(draft.graph, selected.id, branch, target),
        )
      }
      onDelete={deleteSelected}
    />
  ) : (
    <p className="text-sm text-slate-600">{m.builder.selectStep}</p>
  );

  const hasTrigger = draft.graph.nodes.some((node) => node.type === 'trigger');
  const workflowProblems = [
    ...(draft.name.trim() === '' ? [m.validation.nameRequired] : []),
    ...(byNode[''] ?? []),
  ];

  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3 lg:flex-row lg:items-end">
        <div className="grow space-y-1">
          <Label htmlFor={`${ids}-name`}>{m.builder.name}</Label>
          <Input
            id={`${ids}-name`}
            value={draft.name}
            placeholder={m.builder.untitled}
            aria-invalid={draft.name.trim() === '' || undefined}
            onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
          />
        </div>
        <div className="grow space-y-1">
          <Label htmlFor={`${ids}-description`}>{m.builder.descriptionLabel}</Label>
          <Input
            id={`${ids}-description`}
            value={draft.description}
            onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
          />
        </div>
        <div className="w-full space-y-1 lg:w-40">
          <Label htmlFor={`${ids}-rate`} className="whitespace-nowrap">
            {m.builder.rateLimit}
          </Label>
          <Input
            id={`${ids}-rate`}
            type="number"
            min={WORKFLOW_RATE_LIMIT.min}
            max={WORKFLOW_RATE_LIMIT.max}
            value={rateText}
            aria-invalid={String(draft.rateLimitPerHour) !== rateText || undefined}
            onChange={(e) => {
              setRateText(e.target.value);
              const value = Number(e.target.value);
              if (Number.isInteger(value) && e.target.value !== '')
                if (value >= WORKFLOW_RATE_LIMIT.min && value <= WORKFLOW_RATE_LIMIT.max)
                  setDraft((d) => ({ ...d, rateLimitPerHour: value }));
            }}
          />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={STATUS_TONE[current.status]}>{m.status[current.status]}</Badge>
          {current.version !== null && <Badge>{m.version(current.version)}</Badge>}
          <Button variant="outline" onClick={() => void autosave.flush().then(() => setTesting(true))}>
            <FlaskConical aria-hidden />
            {m.dryRun.title}
          </Button>
          {current.status === 'draft' && current.version === null && (
            <Button variant="outline" className="text-red-700" onClick={() => setConfirmDelete(true)}>
              <Trash2 aria-hidden />
              {m.delete}
            </Button>
          )}
          {current.status === 'enabled' ? (
            <>
              {current.hasUnpublishedChanges && (
                <Button disabled={act.isPending || problemCount > 0} onClick={() => void toggle('enable')}>
                  {m.publishChanges}
                </Button>
              )}
              <Button variant="outline" disabled={act.isPending} onClick={() => void toggle('disable')}>
                <PowerOff aria-hidden />
                {m.disable}
              </Button>
            </>
          ) : (
            <Button
              disabled={act.isPending || problemCount > 0 || autosave.state === 'failed'}
              onClick={() => void toggle('enable')}
            >
              <Power aria-hidden />
              {m.enable}
            </Button>
          )}
        </div>
      </div>

      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <div className="flex flex-wrap gap-2">
          {!hasTrigger && (
            <Button variant="outline" size="sm" onClick={() => add('trigger')}>
              <Plus aria-hidden />
              {m.builder.addTrigger}
            </Button>
          )}
          <Button variant="outline" size="sm" onClick={() => add('condition')}>
            <Plus aria-hidden />
            {m.builder.addCondition}
          </Button>
          <Button variant="outline" size="sm" onClick={() => add('action')}>
            <Plus aria-hidden />
            {m.builder.addAction}
          </Button>
          <Button variant="outline" size="sm" onClick={() => add('wait')}>
            <Plus aria-hidden />
            {m.builder.addWait}
          </Button>
        </div>
        <div className="flex items-center gap-2 sm:ml-2">
          <Label htmlFor={`${ids}-select`} className="sr-only">
            {m.builder.selectStep}
          </Label>
          <NativeSelect
            id={`${ids}-select`}
            className="h-8 w-auto text-xs"
            value={selectedId ?? ''}
            onChange={(e) => select(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">{m.builder.selectStep}</option>
            {draft.graph.nodes.map((node) => (
              <option key={node.id} value={node.id}>
                {stepLabel(node)}
              </option>
            ))}
          </NativeSelect>
          {!wide && selected && (
            <Button variant="outline" size="sm" onClick={() => setSheetOpen(true)}>
              {m.edit}
            </Button>
          )}
        </div>
        <div className="sm:ml-auto">
          <SaveIndicator state={autosave.state} problems={problemCount} paused={!savable} />
        </div>
      </div>
      {workflowProblems.length > 0 && (
        <ul className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {workflowProblems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}

      <div className="grid gap-3 lg:grid-cols-[1fr_22rem]">
        <div
          className="h-[60dvh] min-h-80 overflow-hidden rounded-lg border border-slate-200 bg-white lg:h-[calc(100dvh-16rem)]"
          data-testid="workflow-canvas"
        >
          <WorkflowCanvas
            graph={draft.graph}
            problems={byNode}
            details={details}
            selectedId={selectedId}
            onGraphChange={setGraph}
            onSelect={(id) => {
              setSelectedId(id);
              if (id !== null && !wide) setSheetOpen(true);
            }}
          />
        </div>
        {wide && (
          <aside
            className="rounded-lg border border-slate-200 bg-white p-4 lg:max-h-[calc(100dvh-16rem)] lg:overflow-y-auto"
            aria-label={m.builder.panelTitle}
          >
            {panel}
          </aside>
        )}
      </div>
      {!wide && (
        <Sheet open={sheetOpen && selected !== null} onOpenChange={setSheetOpen}>
          <SheetContent side="bottom" className="overflow-y-auto p-4 pt-10">
            <SheetTitle className="sr-only">
              {selected ? stepLabel(selected) : m.builder.selectStep}
            </SheetTitle>
            <SheetDescription className="sr-only">{m.builder.title}</SheetDescription>
            {panel}
          </SheetContent>
        </Sheet>
      )}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={m.delete}
        description={draft.name || m.builder.untitled}
        confirmLabel={m.delete}
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(initial.id, {
            onSuccess: () => {
              // Nothing left to save: the workflow is gone.
              autosave.reset(draft);
              toast(m.deleted);
              navigate('/workflows');
            },
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: m.delete,
                description: errorMessage(error, m.loadFailed),
              }),
          })
        }
      />
      <DryRunDialog
        workflowId={initial.id}
        graph={draft.graph}
        needsRecord={recordTypeOf(triggerKind) !== null}
        open={testing}
        onOpenChange={setTesting}
      />
    </div>
  );
}
