import {
  workflowMessages as m,
  nodeLabel,
  type WorkflowAction,
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowNode,
  type WorkflowNodeType,
  type WorkflowTrigger,
  type WorkflowWait,
} from '@wellrest/core';

// Edits of a workflow graph as the builder makes them: pure, so the canvas, the menus and the
// tests all go through the same rules (one next step per node and branch, no edge into a trigger).

export type Branch = 'yes' | 'no' | null;

/** Vertical room for one step on the canvas. */
const ROW = 180;

export const DEFAULT_TRIGGER: WorkflowTrigger = { kind: 'booking.created' };
export const DEFAULT_ACTION: WorkflowAction = {
  kind: 'send_email',
  templateId: null,
  to: 'patient',
  address: '',
};
export const DEFAULT_WAIT: WorkflowWait = { mode: 'duration', minutes: 0, hours: 0, days: 1 };

/** A fresh graph: the trigger alone, ready for its first step. */
export function emptyGraph(trigger: WorkflowTrigger = DEFAULT_TRIGGER): WorkflowGraph {
  return { nodes: [{ id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, trigger }], edges: [] };
}

/** An id not used by any node of the graph: `condition-2`, `action-3`... */
export function freshId(graph: WorkflowGraph, type: WorkflowNodeType): string {
  const used = new Set(graph.nodes.map((node) => node.id));
  let n = 1;
  while (used.has(`${type}-${n}`)) n += 1;
  return `${type}-${n}`;
}

function newNode(type: WorkflowNodeType, id: string, position: { x: number; y: number }): WorkflowNode {
  switch (type) {
    case 'trigger':
      return { id, type, position, trigger: DEFAULT_TRIGGER };
    case 'condition':
      return { id, type, position, logic: { and: [] } };
    case 'action':
      return { id, type, position, action: DEFAULT_ACTION };
    case 'wait':
      return { id, type, position, wait: DEFAULT_WAIT };
  }
}

/** The first free branch of a node: a condition's yes then no, any other node's single exit. */
export function freeBranch(graph: WorkflowGraph, node: WorkflowNode): Branch | undefined {
  const branches: Branch[] = node.type === 'condition' ? ['yes', 'no'] : [null];
  return branches.find(
    (branch) =>
      !graph.edges.some((edge) => edge.source === node.id && (edge.sourceHandle ?? null) === branch),
  );
}

/**
 * Adds a step of `type`. With `after`, the step is placed below that step and joined to its first
 * free exit (a condition's Yes, then No), so a keyboard user builds a chain without dragging.
 */
export function addNode(
  graph: WorkflowGraph,
  type: WorkflowNodeType,
  after?: string,
): { graph: WorkflowGraph; id: string } {
  const id = freshId(graph, type);
  const from = after ? graph.nodes.find((node) => node.id === after) : undefined;
  const lowest = graph.nodes.reduce((max, node) => Math.max(max, node.position.y), -ROW);
  let position = { x: 0, y: lowest + ROW };
  let graphWithNode: WorkflowGraph = { ...graph };
  if (from) {
    const branch = freeBranch(graph, from);
    const offset = branch === 'yes' ? -160 : branch === 'no' ? 160 : 0;
    position = { x: from.position.x + offset, y: from.position.y + ROW };
    graphWithNode = { ...graph, nodes: [...graph.nodes, newNode(type, id, position)] };
    if (branch !== undefined && type !== 'trigger')
      return { graph: connect(graphWithNode, from.id, branch, id), id };
    return { graph: graphWithNode, id };
  }
  return { graph: { ...graph, nodes: [...graph.nodes, newNode(type, id, position)] }, id };
}

/** Removes a step and every connection to or from it. */
export function removeNode(graph: WorkflowGraph, id: string): WorkflowGraph {
  return {
    nodes: graph.nodes.filter((node) => node.id !== id),
    edges: graph.edges.filter((edge) => edge.source !== id && edge.target !== id),
  };
}

/** The edge id for a connection: stable, so reconnecting the same pair keeps it. */
export function edgeId(source: string, branch: Branch, target: string): string {
  return `${source}${branch ? `:${branch}` : ''}->${target}`;
}

/**
 * Joins `source` (on `branch` for a condition) to `target`, replacing whatever that exit led to:
 * a step leads to one next step per exit. Nothing leads into a trigger, or into itself.
 */
export function connect(graph: WorkflowGraph, source: string, branch: Branch, target: string): WorkflowGraph {
  const to = graph.nodes.find((node) => node.id === target);
  if (!to || to.type === 'trigger' || source === target) return graph;
  const edge: WorkflowEdge = { id: edgeId(source, branch, target), source, target, sourceHandle: branch };
  return {
    ...graph,
    edges: [
      ...graph.edges.filter((e) => !(e.source === source && (e.sourceHandle ?? null) === (branch ?? null))),
      edge,
    ],
  };
}

/** Removes the connection leaving `source` on `branch`. */
export function disconnect(graph: WorkflowGraph, source: string, branch: Branch): WorkflowGraph {
  return {
    ...graph,
    edges: graph.edges.filter((e) => !(e.source === source && (e.sourceHandle ?? null) === (branch ?? null))),
  };
}

export function removeEdge(graph: WorkflowGraph, id: string): WorkflowGraph {
  return { ...graph, edges: graph.edges.filter((edge) => edge.id !== id) };
}

/** Replaces one node (by id) with an edited copy. */
export function updateNode(graph: WorkflowGraph, node: WorkflowNode): WorkflowGraph {
  return { ...graph, nodes: graph.nodes.map((candidate) => (candidate.id === node.id ? node : candidate)) };
}

export function moveNode(
  graph: WorkflowGraph,
  id: string,
  position: { x: number; y: number },
): WorkflowGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((node) => (node.id === id ? { ...node, position } : node)),
  };
}

/** The step a node's exit leads to, if any. */
export function targetOf(graph: WorkflowGraph, source: string, branch: Branch): string | undefined {
  return graph.edges.find((e) => e.source === source && (e.sourceHandle ?? null) === (branch ?? null))
    ?.target;
}

/** The name of a step in menus: its kind, what it does and its id, so two alike steps differ. */
export function stepLabel(node: WorkflowNode): string {
  return `${m.nodeKinds[node.type]}: ${nodeLabel(node)} (${node.id})`;
}
