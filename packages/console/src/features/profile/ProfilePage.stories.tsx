import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, authSessions } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import ProfilePage from './ProfilePage';

const sessions = [
  ...authSessions,
  {
    id: 'b7c1f9a2-0d4e-4c55-9a51-6f3d2e8a1c07',
    createdAt: '2026-11-25T13:02:00.000Z',
    lastSeenAt: '2026-11-25T16:44:00.000Z',
    expiresAt: '2026-11-26T01:02:00.000Z',
    ip: '10.0.4.21',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1',
    current: false,
  },
];
const devices = [
  {
    id: 'f0e3a1d2-7b6c-4e21-8d9a-0c1b2a3d4e5f',
    deviceId: 'a3b4c5d6-e7f8-4a1b-9c2d-3e4f5a6b7c8d',
    createdAt: '2026-11-10T14:00:00.000Z',
    expiresAt: '2026-12-10T14:00:00.000Z',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) Safari/605.1.15',
  },
];
const states = screenStates(
  {
    'GET /api/auth/sessions': { status: 200, body: sessions },
    'GET /api/auth/trusted-devices': { status: 200, body: devices },
  },
  {
    'GET /api/auth/sessions': { status: 200, body: [] },
    'GET /api/auth/trusted-devices': { status: 200, body: [] },
  },
);

/** /profile: the account, password, two-factor authentication, sessions and trusted devices. */
const meta = {
  title: 'Console/Profile',
  component: ProfilePage,
  decorators: [withConsole({ path: '/profile', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof ProfilePage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
export const TwoFactorOnPasswordExpiring: Story = {
  ...states.Filled,
  decorators: [
    withConsole({
      path: '/profile',
      data: [
        [
          CURRENT_USER_KEY,
          { ...authMe, twoFactorEnabled: true, passwordExpiresAt: '2026-12-01T09:00:00.000Z' },
        ],
      ],
      network: true,
    }),
  ],
};
