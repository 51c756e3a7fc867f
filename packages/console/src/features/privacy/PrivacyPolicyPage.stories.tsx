import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { publicPrivacyPolicy } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import PrivacyPolicyPage from './PrivacyPolicyPage';

const states = screenStates(
  { 'GET /api/public/privacy-policy': { status: 200, body: publicPrivacyPolicy } },
  {},
);

/** /privacy-policy: the public notice, with the privacy officer's contact from the settings. */
const meta = {
  title: 'Console/Privacy/Policy page',
  component: PrivacyPolicyPage,
  decorators: [withConsole({ path: '/privacy-policy', network: true })],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof PrivacyPolicyPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
