import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { adminUsers, authMe, physicians } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import AdminUsersPage from './AdminUsersPage';
import { CreateUserDialog } from './CreateUserDialog';
import { PasswordLinkDialog } from './PasswordLinkDialog';
import type { Registration } from './types';
import UserRegistrationsPage from './UserRegistrationsPage';

// /admin/users, /admin/user-registrations and the account dialogs.

const admin = [CURRENT_USER_KEY, authMe] as const;
const registrations: Registration[] = [
  {
    id: 3,
    name: 'Jamie Sampleford',
    username: 'jsampleford',
    email: 'jamie.sampleford@example.test',
    requestedRole: 'scheduler',
    reason: 'New front-desk scheduler at the Riverside office from December 1.',
    status: 'pending',
    createdAt: '2026-11-25T15:20:00.000Z',
    decidedAt: null,
    decisionReason: null,
    userId: null,
  },
  {
    id: 2,
    name: 'Dr. Robin Testley',
    username: 'rtestley',
    email: 'robin.testley@example.test',
    requestedRole: 'physician',
    reason: 'Referring physician; wants to follow referral status online.',
    status: 'approved',
    createdAt: '2026-11-18T10:02:00.000Z',
    decidedAt: '2026-11-18T14:30:00.000Z',
    decisionReason: null,
    userId: 7,
  },
  {
    id: 1,
    name: 'Alex Mockwell',
    username: 'amockwell',
    email: 'alex.mockwell@example.test',
    requestedRole: 'admin',
    reason: 'Need access',
    status: 'rejected',
    createdAt: '2026-11-10T08:45:00.000Z',
    decidedAt: '2026-11-10T09:15:00.000Z',
    decisionReason: 'Administrator accounts are created by the practice manager.',
    userId: null,
  },
];
const users = screenStates(
  {
    'GET /api/admin/users': { status: 200, body: adminUsers },
    'GET /api/physicians': { status: 200, body: physicians },
    'GET /api/admin/housekeeping': { status: 200, body: { tasks: [] } },
  },
  { 'GET /api/admin/users': { status: 200, body: [] } },
);
const requests = screenStates(
  { 'GET /api/admin/registrations': { status: 200, body: registrations } },
  { 'GET /api/admin/registrations': { status: 200, body: [] } },
);

const meta = {
  title: 'Console/Admin/Users',
  decorators: [withConsole({ path: '/admin/users', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Users: Story = { ...users.Filled, render: () => <AdminUsersPage /> };
export const UsersEmpty: Story = { ...users.Empty, render: () => <AdminUsersPage /> };
export const UsersLoading: Story = { ...users.Loading, render: () => <AdminUsersPage /> };
export const UsersLoadFailed: Story = { ...users.LoadFailed, render: () => <AdminUsersPage /> };

export const Registrations: Story = { ...requests.Filled, render: () => <UserRegistrationsPage /> };
export const RegistrationsEmpty: Story = { ...requests.Empty, render: () => <UserRegistrationsPage /> };
export const RegistrationsLoading: Story = { ...requests.Loading, render: () => <UserRegistrationsPage /> };
export const RegistrationsLoadFailed: Story = {
  ...requests.LoadFailed,
  render: () => <UserRegistrationsPage />,
};

export const NewUserDialog: Story = {
  render: () => <CreateUserDialog open onOpenChange={() => {}} />,
};
export const SetPasswordLinkDialog: Story = {
  render: () => (
    <PasswordLinkDialog
      title="Account created"
      name="Jamie Sampleford"
      link={{
        setPasswordUrl: '/set-password?token=demo-one-time-token',
        expiresAt: '2026-11-29T09:00:00.000Z',
      }}
      onClose={() => {}}
    />
  ),
};
