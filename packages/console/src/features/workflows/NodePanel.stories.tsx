import type { Meta, StoryObj } from '@storybook/react-vite';
import { workflowMessages as m, type WorkflowNode } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { TEMPLATE_ITEMS, WORKFLOW_DETAIL } from './fixtures';
import { addNode } from './graph';
import { NodePanel } from './NodePanel';
import { StepCard } from './WorkflowNodes';

const graph = addNode(WORKFLOW_DETAIL.graph, 'wait', 'action-1').graph;
const nodeOf = (id: string) => graph.nodes.find((node) => node.id === id) as WorkflowNode;

/** The side panel of the builder for each kind of step. */
const meta = {
  title: 'Console/Workflows/NodePanel',
  component: NodePanel,
  decorators: [withConsole({ path: '/workflow-builder/1' })],
  args: {
    graph,
    node: nodeOf('trigger'),
    problems: [],
    templates: TEMPLATE_ITEMS,
    onChange: () => {},
    onConnect: () => {},
    onDelete: () => {},
  },
  parameters: { layout: 'padded' },
  render: (args) => (
    <div className="max-w-sm">
      <NodePanel {...args} />
    </div>
  ),
} satisfies Meta<typeof NodePanel>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Trigger: Story = {};
export const Condition: Story = { args: { node: nodeOf('condition-1') } };
export const EmailAction: Story = { args: { node: nodeOf('action-1') } };
export const Wait: Story = { args: { node: nodeOf('wait-1') } };
export const WithProblems: Story = {
  args: {
    node: {
      id: 'action-1',
      type: 'action',
      position: { x: 0, y: 0 },
      action: { kind: 'send_email', templateId: null, to: 'patient', address: '' },
    },
    problems: [m.validation.chooseTemplate, m.validation.notConnected],
  },
};

/** The steps as the canvas draws them, valid and with their problems. */
export const StepCards: Story = {
  render: () => (
    <div className="flex flex-wrap gap-4">
      <StepCard node={nodeOf('trigger')} problems={[]} selected />
      <StepCard node={nodeOf('condition-1')} problems={[]} detail="Kit type is Somfit" />
      <StepCard node={nodeOf('action-1')} problems={[m.validation.chooseTemplate]} detail="The patient" />
      <StepCard node={nodeOf('wait-1')} problems={[m.validation.notConnected]} detail="1 days" />
    </div>
  ),
};
