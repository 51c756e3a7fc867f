import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe } from '../../../../../.storybook/demoData';
import { stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import LoginPage from './LoginPage';
import RegisterPage from './RegisterPage';
import SetPasswordPage from './SetPasswordPage';
import TestAuthPage from './TestAuthPage';

// The public account pages (request access, set a password from a one-time link) and /test-auth.

const meta = {
  title: 'Console/Auth/Pages',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const RequestAccess: Story = {
  decorators: [withConsole({ path: '/register' })],
  render: () => <RegisterPage />,
};

/** Sent empty: each required field says what it needs. */
export const RequestAccessIncomplete: Story = {
  decorators: [withConsole({ path: '/register' })],
  render: () => <RegisterPage />,
  play: async ({ canvasElement }) => {
    canvasElement.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
    await stubbedCallsSettled();
  },
};

export const SetPassword: Story = {
  decorators: [withConsole({ path: '/set-password?token=demo-one-time-token' })],
  render: () => <SetPasswordPage />,
};

export const SetPasswordLinkMissing: Story = {
  decorators: [withConsole({ path: '/set-password' })],
  render: () => <SetPasswordPage />,
};

export const TestAuth: Story = {
  decorators: [withConsole({ path: '/test-auth', data: [[CURRENT_USER_KEY, authMe]], network: true })],
  beforeEach: stubFetch({ 'GET /api/auth/me': { status: 200, body: authMe } }),
  render: () => <TestAuthPage />,
  play: () => stubbedCallsSettled(),
};

export const TestAuthSignedOut: Story = {
  decorators: [withConsole({ path: '/test-auth', data: [[CURRENT_USER_KEY, null]] })],
  render: () => <TestAuthPage />,
};

/** /login: the sign-in screen as the route shows it. */
export const Login: Story = {
  decorators: [withConsole({ path: '/login' })],
  render: () => <LoginPage />,
};
