import { workflowMessages as m, validateWorkflow } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { addNode, connect, disconnect, emptyGraph, freshId, removeNode, stepLabel, targetOf } from './graph';

describe('building a workflow with the menus', () => {
  it('joins a new step to the selected one, a condition by Yes then No', () => {
    let { graph, id: condition } = addNode(emptyGraph(), 'condition', 'trigger');
    expect(condition).toBe('condition-1');
    expect(targetOf(graph, 'trigger', null)).toBe('condition-1');
    const yes = addNode(graph, 'action', condition);
    graph = yes.graph;
    const no = addNode(graph, 'wait', condition);
    graph = no.graph;
    expect(targetOf(graph, condition, 'yes')).toBe(yes.id);
    expect(targetOf(graph, condition, 'no')).toBe(no.id);
    // Both branches are taken: a third step stands alone until connected.
    const third = addNode(graph, 'action', condition);
    expect(third.graph.edges).toHaveLength(graph.edges.length);
    expect(validateWorkflow(third.graph).find((issue) => issue.nodeId === third.id)?.message).toBe(
      m.validation.notConnected,
    );
  });

  it('places a new step below the one it follows', () => {
    const { graph, id } = addNode(emptyGraph(), 'action', 'trigger');
    const node = graph.nodes.find((candidate) => candidate.id === id);
    expect(node?.position.y).toBeGreaterThan(0);
    expect(node?.position.x).toBe(0);
  });

  it('keeps one next step per exit, never leads into the trigger or a step itself', () => {
    let graph = addNode(emptyGraph(), 'action', 'trigger').graph;
    graph = addNode(graph, 'wait').graph;
    graph = connect(graph, 'trigger', null, 'wait-1');
    expect(graph.edges.filter((edge) => edge.source === 'trigger')).toEqual([
      { id: 'trigger->wait-1', source: 'trigger', target: 'wait-1', sourceHandle: null },
    ]);
    expect(connect(graph, 'action-1', null, 'trigger')).toBe(graph);
    expect(connect(graph, 'action-1', null, 'action-1')).toBe(graph);
    expect(targetOf(disconnect(graph, 'trigger', null), 'trigger', null)).toBeUndefined();
  });

  it('removes a step with its connections', () => {
    let graph = addNode(emptyGraph(), 'action', 'trigger').graph;
    graph = addNode(graph, 'wait', 'action-1').graph;
    const without = removeNode(graph, 'action-1');
    expect(without.nodes.map((node) => node.id)).toEqual(['trigger', 'wait-1']);
    expect(without.edges).toEqual([]);
  });

  it('names steps so that two alike steps differ', () => {
    let graph = addNode(emptyGraph(), 'action').graph;
    graph = addNode(graph, 'action').graph;
    expect(freshId(graph, 'action')).toBe('action-3');
    const labels = graph.nodes.map(stepLabel);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels[1]).toBe(`${m.nodeKinds.action}: ${m.actions.send_email} (action-1)`);
  });
});
