import { workflowMessages as m, type WorkflowGraph } from '@wellrest/core';
import {
  Background,
  Controls,
  type Edge,
  type EdgeChange,
  MarkerType,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useState } from 'react';
import { type Branch, connect, moveNode, removeEdge, removeNode, stepLabel } from './graph';
import { NODE_TYPES, type StepNode } from './WorkflowNodes';

interface CanvasProps {
  graph: WorkflowGraph;
  problems: Readonly<Record<string, readonly string[]>>;
  details: Readonly<Record<string, string>>;
  selectedId: string | null;
  readOnly?: boolean;
  onGraphChange: (graph: WorkflowGraph) => void;
  onSelect: (id: string | null) => void;
}

function Canvas({
  graph,
  problems,
  details,
  selectedId,
  readOnly = false,
  onGraphChange,
  onSelect,
}: CanvasProps) {
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const [selectedEdge, setSelectedEdge] = useState<string | null>(null);
  const flow = useReactFlow();

  const nodes = useMemo<StepNode[]>(
    () =>
      graph.nodes.map((node) => ({
        id: node.id,
        type: node.type,
        position: node.position,
        data: { node, problems: problems[node.id] ?? [], detail: details[node.id] },
        selected: node.id === selectedId,
        measured: measured[node.id],
        ariaLabel: stepLabel(node),
        deletable: !readOnly,
      })),
    [graph.nodes, problems, details, selectedId, measured, readOnly],
  );

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        sourceHandle: edge.sourceHandle ?? undefined,
        label:
          edge.sourceHandle === 'yes' ? m.builder.yes : edge.sourceHandle === 'no' ? m.builder.no : undefined,
        selected: edge.id === selectedEdge,
        markerEnd: { type: MarkerType.ArrowClosed },
        style: {
          stroke:
            edge.sourceHandle === 'yes' ? '#15803d' : edge.sourceHandle === 'no' ? '#b91c1c' : '#64748b',
          strokeWidth: 2,
        },
      })),
    [graph.edges, selectedEdge],
  );

  // A newly selected step (from the menus) is brought into view; only when the selection changes,
  // not while a step is dragged.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!selectedId) return;
    const node = graph.nodes.find((candidate) => candidate.id === selectedId);
    if (!node) return;
    const box = measured[selectedId] ?? { width: 240, height: 100 };
    const viewport = flow.getViewport();
    const el = document.querySelector('.react-flow');
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    const x = node.position.x * viewport.zoom + viewport.x;
    const y = node.position.y * viewport.zoom + viewport.y;
    if (x < 0 || y < 0 || x + box.width * viewport.zoom > width || y + box.height * viewport.zoom > height)
      void flow.setCenter(node.position.x + box.width / 2, node.position.y + box.height / 2, {
        zoom: viewport.zoom,
        duration: 200,
      });
  }, [selectedId]);

  function onNodesChange(changes: NodeChange<StepNode>[]) {
    let next = graph;
    let graphChanged = false;
    const sizes: Record<string, { width: number; height: number }> = {};
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions) sizes[change.id] = change.dimensions;
      else if (change.type === 'position' && change.position && !readOnly) {
        next = moveNode(next, change.id, change.position);
        graphChanged = true;
      } else if (change.type === 'select') {
        if (change.selected) onSelect(change.id);
        else if (change.id === selectedId) onSelect(null);
      } else if (change.type === 'remove' && !readOnly) {
        next = removeNode(next, change.id);
        graphChanged = true;
        if (change.id === selectedId) onSelect(null);
      }
    }
    if (Object.keys(sizes).length > 0) setMeasured((current) => ({ ...current, ...sizes }));
    if (graphChanged) onGraphChange(next);
  }

  function onEdgesChange(changes: EdgeChange[]) {
    let next = graph;
    let graphChanged = false;
    for (const change of changes) {
      if (change.type === 'select') setSelectedEdge(change.selected ? change.id : null);
      else if (change.type === 'remove' && !readOnly) {
        next = removeEdge(next, change.id);
        graphChanged = true;
      }
    }
    if (graphChanged) onGraphChange(next);
  }

  return (
    <ReactFlow<StepNode, Edge>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={(connection) => {
        if (readOnly) return;
        onGraphChange(
          connect(
            graph,
            connection.source,
            (connection.sourceHandle as Branch | null) ?? null,
            connection.target,
          ),
        );
      }}
      onPaneClick={() => onSelect(null)}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
      multiSelectionKeyCode={null}
      fitView
      fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
      minZoom={0.3}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={20} />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}

/** The workflow on a canvas: steps to drag, connect by their handles, select and delete. */
export function WorkflowCanvas(props: CanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}
