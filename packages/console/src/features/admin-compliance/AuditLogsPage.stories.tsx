import type { Meta, StoryObj } from '@storybook/react-vite';
import { adminMessages } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import AuditLogsPage from './AuditLogsPage';
import { sampleEvents, samplePage } from './fixtures';

const text = adminMessages.audit;

/** /admin/audit-logs: filters, the events, chain verification and the CSV export. */
const meta = {
  title: 'Console/Admin/Audit logs',
  component: AuditLogsPage,
  decorators: [withConsole({ path: '/admin/audit-logs' })],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof AuditLogsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithEvents: Story = {
  beforeEach: stubFetch({
    'GET /api/admin/audit-logs': { status: 200, body: samplePage },
    'GET /api/admin/audit-logs/verification': {
      status: 200,
      body: {
        ok: true,
        checked: 120_345,
        heads: [{ lane: 0, seq: 15_043, hash: 'ab'.repeat(32) }],
        firstBroken: null,
      },
    },
    'GET /api/admin/audit-logs/1042': {
      status: 200,
      body: {
        ...sampleEvents[0],
        chain: { lane: 3, seq: 15_037, prevHash: 'cd'.repeat(32), hash: 'ef'.repeat(32) },
      },
    },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: text.verifyChain }));
    await expect(await canvas.findByText(text.chainIntact(120_345))).toBeVisible();
  },
};

/** The verification found an edited event. */
export const ChainBroken: Story = {
  beforeEach: stubFetch({
    'GET /api/admin/audit-logs': { status: 200, body: samplePage },
    'GET /api/admin/audit-logs/verification': {
      status: 200,
      body: {
        ok: false,
        checked: 811,
        heads: [],
        firstBroken: { lane: 0, seq: 812, eventId: 812, reason: 'content_changed' },
      },
    },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: text.verifyChain }));
    await expect(await canvas.findByText(text.chainBroken(812, 'content_changed'))).toBeVisible();
  },
};

export const Empty: Story = {
  beforeEach: stubFetch({
    'GET /api/admin/audit-logs': { status: 200, body: { items: [], nextCursor: null, pageSize: 50 } },
  }),
};

export const Loading: Story = {
  beforeEach: stubFetch({ 'GET /api/admin/audit-logs': { network: 'pending' } }),
};

export const LoadFailed: Story = {
  beforeEach: stubFetch({
    'GET /api/admin/audit-logs': { status: 500, body: { error: 'Something went wrong' } },
  }),
};

/** On a phone: events as cards. */
export const Phone: Story = {
  ...WithEvents,
  play: undefined,
  globals: { viewport: { value: 'mobile1' } },
};
