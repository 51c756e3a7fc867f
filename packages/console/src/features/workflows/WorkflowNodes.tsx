import { workflowMessages as m, nodeLabel, type WorkflowNode } from '@wellrest/core';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { Clock, GitBranch, Send, TriangleAlert, Zap } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface StepData extends Record<string, unknown> {
  node: WorkflowNode;
  /** Validation messages about this step, shown on it. */
  problems: readonly string[];
  /** A short line under the title: the rules, the template, the wait. */
  detail?: string;
}

export type StepNode = Node<StepData, WorkflowNode['type']>;

const ICONS = {
  trigger: <Zap className="size-4" aria-hidden />,
  condition: <GitBranch className="size-4" aria-hidden />,
  action: <Send className="size-4" aria-hidden />,
  wait: <Clock className="size-4" aria-hidden />,
} as const;

const TONES = {
  trigger: 'border-accent-300 bg-accent-50 text-accent-800',
  condition: 'border-amber-300 bg-amber-50 text-amber-900',
  action: 'border-blue-300 bg-blue-50 text-blue-800',
  wait: 'border-purple-300 bg-purple-50 text-purple-800',
} as const;

const handleClass = '!size-3 !border-2 !border-white !bg-slate-500';

/** The card of one step: what it is, its detail, and its problems (in red, on the step itself). */
export function StepCard({
  node,
  problems,
  detail,
  selected = false,
  children,
}: StepData & { selected?: boolean; children?: ReactNode }) {
  const invalid = problems.length > 0;
  return (
    <div
      className={cn(
        'w-60 rounded-lg border bg-white text-left shadow-sm',
        invalid ? 'border-red-400' : 'border-slate-300',
        selected && 'ring-2 ring-accent-600 ring-offset-2',
      )}
      data-testid={`step-${node.id}`}
      data-invalid={invalid || undefined}
    >
      <div
        className={cn(
          'flex items-center gap-2 rounded-t-lg border-b px-3 py-1.5 text-xs font-medium',
          TONES[node.type],
        )}
      >
        {ICONS[node.type]}
        <span>{m.nodeKinds[node.type]}</span>
        <span className="ml-auto font-mono text-[10px]">{node.id}</span>
      </div>
      <div className="px-3 py-2">
        <p className="text-sm font-medium text-slate-900">{nodeLabel(node)}</p>
        {detail && <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{detail}</p>}
        {invalid && (
          <ul className="mt-2 space-y-1" aria-label={m.builder.problems(problems.length)}>
            {problems.map((problem) => (
              <li key={problem} className="flex gap-1 text-xs text-red-700">
                <TriangleAlert className="mt-0.5 size-3 shrink-0" aria-hidden />
                <span>{problem}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {children}
    </div>
  );
}

function TriggerStep({ data, selected }: NodeProps<StepNode>) {
  return (
    <StepCard {...data} selected={selected}>
      <Handle type="source" position={Position.Bottom} className={handleClass} />
    </StepCard>
  );
}

function ConditionStep({ data, selected }: NodeProps<StepNode>) {
  return (
    <StepCard {...data} selected={selected}>
      <Handle type="target" position={Position.Top} className={handleClass} />
      <div className="flex justify-between px-3 pb-1.5 text-[11px] font-semibold">
        <span className="text-green-700">{m.builder.yes}</span>
        <span className="text-red-700">{m.builder.no}</span>
      </div>
      <Handle
        id="yes"
        type="source"
        position={Position.Bottom}
        style={{ left: '20%' }}
        className={cn(handleClass, '!bg-green-600')}
      />
      <Handle
        id="no"
        type="source"
        position={Position.Bottom}
        style={{ left: '80%' }}
        className={cn(handleClass, '!bg-red-600')}
      />
    </StepCard>
  );
}

function ChainStep({ data, selected }: NodeProps<StepNode>) {
  return (
    <StepCard {...data} selected={selected}>
      <Handle type="target" position={Position.Top} className={handleClass} />
      <Handle type="source" position={Position.Bottom} className={handleClass} />
    </StepCard>
  );
}

export const NODE_TYPES = {
  trigger: TriggerStep,
  condition: ConditionStep,
  action: ChainStep,
  wait: ChainStep,
};
