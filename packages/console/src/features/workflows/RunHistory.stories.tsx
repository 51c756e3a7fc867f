import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { RUN_DETAIL, RUNS } from './fixtures';
import { RunDetailView, RunHistorySkeleton, RunList } from './RunHistory';

/** One run step by step: status, input, output, attempts, timing, error; retry of the failed step. */
const meta = {
  title: 'Console/Workflows/RunDetail',
  component: RunDetailView,
  decorators: [withConsole({ path: '/workflows' })],
  args: { run: RUN_DETAIL, canRetry: true, onRetry: () => {} },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof RunDetailView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const FailedRun: Story = {};

export const Retrying: Story = { args: { retryingStepId: 103 } };

export const ReadOnly: Story = { args: { canRetry: false } };

export const Completed: Story = {
  args: {
    run: {
      ...RUN_DETAIL,
      status: 'completed',
      error: null,
      steps: RUN_DETAIL.steps.map((step) => ({ ...step, status: 'completed', error: null })),
    },
  },
};

export const RunsList: Story = { render: () => <RunList runs={RUNS} selectedId={41} onSelect={() => {}} /> };

export const NoRuns: Story = { render: () => <RunList runs={[]} selectedId={null} onSelect={() => {}} /> };

export const Loading: Story = { render: () => <RunHistorySkeleton /> };
