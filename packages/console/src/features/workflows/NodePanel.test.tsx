import { fireEvent, render, screen, within } from '@testing-library/react';
import { workflowMessages as m, type WorkflowGraph, type WorkflowNode } from '@wellrest/core';
import { expect, it, vi } from 'vitest';
import { TEMPLATE_ITEMS, WORKFLOW_DETAIL } from './fixtures';
import { addNode, emptyGraph } from './graph';
import { NodePanel } from './NodePanel';

function renderPanel(graph: WorkflowGraph, id: string) {
  const onChange = vi.fn<(node: WorkflowNode) => void>();
  const onConnect = vi.fn();
  const onDelete = vi.fn();
  const node = graph.nodes.find((candidate) => candidate.id === id) as WorkflowNode;
  render(
    <NodePanel
      graph={graph}
      node={node}
      problems={[]}
      templates={TEMPLATE_ITEMS}
      onChange={onChange}
      onConnect={onConnect}
      onDelete={onDelete}
    />,
  );
  return { onChange, onConnect, onDelete };
}

it('edits a condition as rules over the trigger’s fields and stores JSON Logic', () => {
  const { graph } = addNode(emptyGraph(), 'condition', 'trigger');
  const { onChange } = renderPanel(graph, 'condition-1');
  fireEvent.click(screen.getByRole('button', { name: m.builder.addRule }));
  const added = onChange.mock.lastCall?.[0];
  expect(added?.type === 'condition' && added.logic).toEqual({
    and: [{ '==': [{ var: 'patient.id' }, ''] }],
  });
});

it('offers the field’s operators and values: kit type is one of the kit types', () => {
  const node = WORKFLOW_DETAIL.graph.nodes.find((n) => n.id === 'condition-1') as WorkflowNode;
  const { onChange } = renderPanel(WORKFLOW_DETAIL.graph, node.id);
  const field = screen.getByLabelText(m.builder.field) as HTMLSelectElement;
  expect(field.value).toBe('kit.type');
  const operators = within(screen.getByLabelText(m.builder.operator)).getAllByRole('option');
  expect(operators.map((option) => option.textContent)).not.toContain(m.operators.greater_than);
  fireEvent.change(screen.getByLabelText(m.builder.value), { target: { value: 'Z-Machine' } });
  const changed = onChange.mock.lastCall?.[0];
  expect(changed?.type === 'condition' && changed.logic).toEqual({
    and: [{ '==': [{ var: 'kit.type' }, 'Z-Machine'] }],
  });
  fireEvent.click(screen.getByLabelText(m.builder.match.any));
  const any = onChange.mock.lastCall?.[0];
  expect(any?.type === 'condition' && Object.keys(any.logic)).toEqual(['or']);
});

it('picks only templates of the action’s channel and connects branches through menus', () => {
  const { onChange, onConnect } = renderPanel(WORKFLOW_DETAIL.graph, 'action-1');
  const picker = screen.getByLabelText(m.builder.template);
  expect(
    within(picker)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual([m.builder.chooseTemplate, 'Somfit booked']);
  fireEvent.change(picker, { target: { value: '' } });
  const cleared = onChange.mock.lastCall?.[0];
  expect(
    cleared?.type === 'action' && cleared.action.kind === 'send_email' && cleared.action.templateId,
  ).toBeNull();
  fireEvent.change(screen.getByLabelText(m.builder.connect), { target: { value: 'condition-1' } });
  expect(onConnect).toHaveBeenLastCalledWith(null, 'condition-1');
});

it('lists the variables the trigger provides, without clinical ones', () => {
  renderPanel(WORKFLOW_DETAIL.graph, 'trigger');
  fireEvent.click(screen.getByText(m.builder.variables));
  expect(screen.getByText('{{ kit.type }}')).toBeTruthy();
  expect(screen.queryByText('{{ patient.medications }}')).toBeNull();
});
