import type { Meta, StoryObj } from '@storybook/react-vite';
import { workflowMessages as m } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import { RUN_DETAIL, RUNS, WORKFLOW_ROWS } from './fixtures';
import WorkflowsPage from './WorkflowsPage';

const scheduler = { id: 3, username: 'scheduler', role: 'scheduler' };

/** /workflows: trigger, status, last run, runs and failures of the last 7 days; enable, duplicate, history. */
const meta = {
  title: 'Console/Workflows/WorkflowsPage',
  component: WorkflowsPage,
  decorators: [withConsole({ path: '/workflows', data: [[['/api/auth/me'], scheduler]] })],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof WorkflowsPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const answers = {
  'GET /api/auth/me': { status: 200, body: scheduler },
  'GET /api/workflows': { status: 200, body: { workflows: WORKFLOW_ROWS } },
  'GET /api/workflows/2/runs': { status: 200, body: { runs: RUNS } },
  'GET /api/workflow-runs/41': { status: 200, body: RUN_DETAIL },
  'POST /api/workflow-runs/41/steps/103/retry': { status: 200, body: { ...RUN_DETAIL, status: 'running' } },
} as const;

export const Filled: Story = { beforeEach: stubFetch(answers) };

export const Loading: Story = {
  beforeEach: stubFetch({ ...answers, 'GET /api/workflows': { network: 'pending' } }),
};

export const Empty: Story = {
  beforeEach: stubFetch({ ...answers, 'GET /api/workflows': { status: 200, body: { workflows: [] } } }),
};

export const LoadFailed: Story = {
  beforeEach: stubFetch({
    ...answers,
    'GET /api/workflows': { status: 500, body: { error: 'Something went wrong' } },
  }),
};

/** The run history of a workflow whose last run failed: steps, attempts, timing, error and retry. */
export const RunHistory: Story = {
  beforeEach: stubFetch(answers),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: `${m.history}: Pickup reminder` }));
    const dialog = within(canvasElement.ownerDocument.body);
    await expect(await dialog.findByTestId('run-step-action-2')).toBeVisible();
  },
};

export const Phone: Story = { ...Filled, globals: { viewport: { value: 'mobile1' } } };
