import type { Meta, StoryObj } from '@storybook/react-vite';
import { Route } from 'wouter';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import BuilderPage from './BuilderPage';
import { NEW_DRAFT, TEMPLATE_ITEMS, WORKFLOW_DETAIL } from './fixtures';

function Builder() {
  return (
    <Route path="/workflow-builder/:id?">
      <BuilderPage />
    </Route>
  );
}

/** /workflow-builder/:id: the canvas, the side panel of the selected step, autosave and the test run. */
const meta = {
  title: 'Console/Workflows/Builder',
  component: Builder,
  decorators: [withConsole({ path: '/workflow-builder/1' })],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Builder>;
export default meta;
type Story = StoryObj<typeof meta>;

const answers = {
  'GET /api/workflows/1': { status: 200, body: WORKFLOW_DETAIL },
  'GET /api/workflows/5': { status: 200, body: NEW_DRAFT },
  'GET /api/templates': { status: 200, body: { items: TEMPLATE_ITEMS } },
  'PUT /api/workflows/1': { status: 200, body: WORKFLOW_DETAIL },
  'PUT /api/workflows/5': { status: 200, body: NEW_DRAFT },
  'GET /api/workflows/1/samples': {
    status: 200,
    body: { records: [{ id: 12, label: 'Booking #12 · Somfit · 2031-03-03 · confirmed' }] },
  },
  'POST /api/workflows/1/test': {
    status: 200,
    body: {
      dryRun: true,
      record: { type: 'booking', id: 12 },
      issues: [],
      steps: [
        { nodeId: 'trigger', type: 'trigger', label: 'Booking created', detail: 'Booking #12' },
        {
          nodeId: 'condition-1',
          type: 'condition',
          label: 'Condition',
          decision: 'yes',
          detail: 'All rules match',
          rules: [{ field: 'kit.type', operator: 'equals', value: 'Somfit', actual: 'Somfit', passed: true }],
        },
        {
          nodeId: 'action-1',
          type: 'message',
          label: 'Send email',
          channel: 'email',
          to: 'j***@example.com',
          subject: 'Your Somfit kit is booked, Jordan',
          text: 'See you on 2031-03-03.',
          detail: 'Would send email to j***@example.com',
        },
      ],
    },
  },
} as const;

/** An enabled workflow: booking created → if kit type is Somfit → email the patient. */
export const Enabled: Story = { beforeEach: stubFetch(answers) };

/** A new draft: the trigger alone, with what is missing shown on it. */
export const NewDraft: Story = {
  decorators: [withConsole({ path: '/workflow-builder/5' })],
  beforeEach: stubFetch(answers),
};

/** Starting a workflow: its name and trigger. */
export const Start: Story = { decorators: [withConsole({ path: '/workflow-builder' })] };

export const Loading: Story = {
  beforeEach: stubFetch({ ...answers, 'GET /api/workflows/1': { network: 'pending' } }),
};

export const LoadFailed: Story = {
  beforeEach: stubFetch({
    ...answers,
    'GET /api/workflows/1': { status: 500, body: { error: 'Something went wrong' } },
  }),
};

export const NotFound: Story = {
  beforeEach: stubFetch({
    ...answers,
    'GET /api/workflows/1': { status: 404, body: { error: 'Not found' } },
  }),
};

/** At 390 px the side panel is a sheet from the bottom. */
export const Phone: Story = { ...Enabled, globals: { viewport: { value: 'mobile1' } } };
