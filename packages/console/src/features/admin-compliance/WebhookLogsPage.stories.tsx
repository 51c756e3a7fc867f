import type { Meta, StoryObj } from '@storybook/react-vite';
import type { WebhookDeliveryView } from '@wellrest/core';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import WebhookLogsPage from './WebhookLogsPage';

const deliveries: WebhookDeliveryView[] = [
  {
    id: 31,
    direction: 'inbound',
    source: 'ghl',
    event: 'ContactUpdate',
    webhookId: 'wh-31',
    status: 'processed',
    signature: 'valid',
    reason: null,
    attempts: 2,
    latencyMs: 14,
    patientId: 21,
    receivedAt: '2025-11-25T14:03:00Z',
    replayedAt: '2025-11-25T15:00:00Z',
    payload: {
      type: 'ContactUpdate',
      id: 'c-1',
      firstName: 'Avery',
      lastName: 'Demoford',
      phone: '(555) 010-1111',
    },
    masked: false,
  },
  {
    id: 30,
    direction: 'inbound',
    source: 'ghl',
    event: 'ContactCreate',
    webhookId: 'wh-30',
    status: 'rejected',
    signature: 'invalid',
    reason: 'signature_invalid',
    attempts: 1,
    latencyMs: 2,
    patientId: null,
    receivedAt: '2025-11-25T14:01:00Z',
    replayedAt: null,
    payload: { type: 'ContactCreate', id: 'c-2', firstName: '•••', email: '•••' },
    masked: true,
  },
];

/** /webhook-logs: each delivery, its signature check and payload; replay for administrators. */
const meta = {
  title: 'Console/Admin/Webhook logs',
  component: WebhookLogsPage,
  decorators: [withConsole({ path: '/webhook-logs' })],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof WebhookLogsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithDeliveries: Story = {
  beforeEach: stubFetch({
    'GET /api/webhook-logs': { status: 200, body: { items: deliveries, nextBefore: null } },
  }),
};

export const Empty: Story = {
  beforeEach: stubFetch({ 'GET /api/webhook-logs': { status: 200, body: { items: [], nextBefore: null } } }),
};

export const Loading: Story = {
  beforeEach: stubFetch({ 'GET /api/webhook-logs': { network: 'pending' } }),
};

export const LoadFailed: Story = {
  beforeEach: stubFetch({
    'GET /api/webhook-logs': { status: 500, body: { error: 'Something went wrong' } },
  }),
};
