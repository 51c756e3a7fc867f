import type { Meta, StoryObj } from '@storybook/react-vite';
import { adminMessages } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { stubFetch } from '../../../../../.storybook/fetchStub';
import AdminDashboardPage, { ADMIN_DASHBOARD_KEY } from './AdminDashboardPage';
import { sampleDashboard, sampleHipaa, sampleSettings } from './fixtures';
import HipaaPage, { HIPAA_KEY, SESSIONS_KEY } from './HipaaPage';
import SettingsPage, { SETTINGS_KEY } from './SettingsPage';

/** /admin/settings, /admin/hipaa and /admin/dashboard with example data and in their other states. */
const meta = {
  title: 'Console/Admin/Compliance pages',
  parameters: { layout: 'padded' },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const Settings: Story = {
  render: () => <SettingsPage />,
  decorators: [withConsole({ path: '/admin/settings', data: [[SETTINGS_KEY, sampleSettings]] })],
};

/** A bad value: the server's field message under the field, nothing saved. */
export const SettingsRefused: Story = {
  render: () => <SettingsPage />,
  decorators: [withConsole({ path: '/admin/settings', data: [[SETTINGS_KEY, sampleSettings]] })],
  beforeEach: stubFetch({
    'PATCH /api/admin/settings': {
      status: 400,
      body: { error: 'Invalid request', fields: { sessionIdleMinutes: 'Must be at least 1' } },
    },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const idle = canvas.getByLabelText(adminMessages.settings.fields.sessionIdleMinutes);
    await userEvent.clear(idle);
    await userEvent.type(idle, '0');
    await userEvent.click(canvas.getByRole('button', { name: adminMessages.settings.save }));
    await expect(await canvas.findByText('Must be at least 1')).toBeVisible();
  },
};

export const SettingsLoading: Story = {
  render: () => <SettingsPage />,
  decorators: [withConsole({ path: '/admin/settings' })],
};

export const Hipaa: Story = {
  render: () => <HipaaPage />,
  decorators: [
    withConsole({
      path: '/admin/hipaa',
      data: [
        [HIPAA_KEY, sampleHipaa],
        [
          SESSIONS_KEY,
          [
            {
              id: 's-1',
              userId: 1,
              username: 'admin',
              role: 'admin',
              lastSeenAt: '2025-11-25T14:00:00Z',
              ip: '10.0.0.2',
              current: true,
            },
            {
              id: 's-2',
              userId: 3,
              username: 'scheduler',
              role: 'scheduler',
              lastSeenAt: '2025-11-25T13:40:00Z',
              ip: '10.0.0.7',
              current: false,
            },
          ],
        ],
      ],
    }),
  ],
};

export const Dashboard: Story = {
  render: () => <AdminDashboardPage />,
  decorators: [withConsole({ path: '/admin/dashboard', data: [[ADMIN_DASHBOARD_KEY, sampleDashboard]] })],
};

export const DashboardLoading: Story = {
  render: () => <AdminDashboardPage />,
  decorators: [withConsole({ path: '/admin/dashboard' })],
};
