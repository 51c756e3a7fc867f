import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, twoFactorSetup } from '../../../../../.storybook/demoData';
import { stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import EnrolTwoFactorScreen from './EnrolTwoFactorScreen';

/** Shown instead of the console until an account whose role requires two-factor authentication has it on. */
const meta = {
  title: 'Console/Auth/Enrol two-factor',
  component: EnrolTwoFactorScreen,
  decorators: [
    withConsole({ path: '/', data: [[CURRENT_USER_KEY, { ...authMe, twoFactorEnabled: false }]] }),
  ],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof EnrolTwoFactorScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Start: Story = {};

async function startSetup(canvasElement: HTMLElement) {
  const button = [...canvasElement.querySelectorAll('button')].find((b) =>
    b.textContent?.includes('Set up two-factor authentication'),
  );
  button?.click();
  await stubbedCallsSettled();
}

/** The QR code and the code field, after Set up. */
export const ScanQrCode: Story = {
  beforeEach: stubFetch({ 'POST /api/auth/2fa/setup': { status: 200, body: twoFactorSetup } }),
  play: ({ canvasElement }) => startSetup(canvasElement),
};

export const Preparing: Story = {
  beforeEach: stubFetch({ 'POST /api/auth/2fa/setup': { network: 'pending' } }),
  play: ({ canvasElement }) => startSetup(canvasElement),
};

export const SetupFailed: Story = {
  beforeEach: stubFetch({
    'POST /api/auth/2fa/setup': { status: 500, body: { error: 'Something went wrong' } },
  }),
  play: ({ canvasElement }) => startSetup(canvasElement),
};
