import type { Meta, StoryObj } from '@storybook/react-vite';
import { API_PATHS, messages } from '@wellrest/core';
import { expect, userEvent, within } from 'storybook/test';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { type StubReply, stubFetch } from '../../../../../.storybook/fetchStub';
import LoginScreen from './LoginScreen';

const DEVICE_ID = '00000000-0000-4000-8000-000000000001';

/** Answers the sign-in call with `reply`; nothing reaches a server. */
const loginAnswers = (reply: StubReply) => stubFetch({ [`POST ${API_PATHS.authLogin}`]: reply });

/** Types a username and password and presses Sign In, as a person would. */
async function signIn(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.type(canvas.getByLabelText(messages.login.usernameLabel), 'scheduler');
  await userEvent.type(canvas.getByLabelText(messages.login.passwordLabel), 'correct horse battery');
  await userEvent.click(canvas.getByRole('button', { name: messages.login.signIn }));
}

/** The sign-in screen (/login, and in place of any signed-in page while signed out). */
const meta = {
  title: 'Console/Auth/Login screen',
  component: LoginScreen,
  decorators: [withConsole({ path: '/login' })],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof LoginScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** Sent empty: both fields say they are required. */
export const RequiredFields: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: messages.login.signIn }));
    await expect(await canvas.findByText(messages.login.usernameRequired)).toBeVisible();
  },
};

/** The answer has not come back yet: fields locked, the button says Signing in... */
export const SigningIn: Story = {
  beforeEach: loginAnswers({ network: 'pending' }),
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    await expect(await within(canvasElement).findByText(messages.login.signingIn)).toBeVisible();
  },
};

/** The account has two-factor authentication: the 6-character code step. */
export const TwoFactorStep: Story = {
  beforeEach: loginAnswers({
    status: 200,
    body: { success: false, requiresTwoFactor: true, deviceId: DEVICE_ID },
  }),
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    const canvas = within(canvasElement);
    await expect(await canvas.findByLabelText(messages.login.codeLabel)).toBeVisible();
    await expect(canvas.getByRole('button', { name: messages.login.verify })).toBeVisible();
  },
};

/** The password is past its expiry: the alert tells the person to ask an administrator. */
export const PasswordExpired: Story = {
  beforeEach: loginAnswers({
    status: 200,
    body: { success: false, passwordExpired: true, deviceId: DEVICE_ID },
  }),
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    await expect(await within(canvasElement).findByText(messages.login.passwordExpiredAlert)).toBeVisible();
  },
};

/** Wrong credentials: the server's message in an error toast. */
export const InvalidCredentials: Story = {
  beforeEach: loginAnswers({ status: 401, body: { error: messages.login.invalidCredentials } }),
  play: async ({ canvasElement }) => {
    await signIn(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    await expect(await page.findByText(messages.login.invalidCredentials)).toBeVisible();
  },
};
