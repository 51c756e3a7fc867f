import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, templates } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import TemplatesPage from './TemplatesPage';

const states = screenStates(
  { 'GET /api/templates': { status: 200, body: templates } },
  { 'GET /api/templates': { status: 200, body: { items: [] } } },
);

/** /templates: email and text message templates by trigger. */
const meta = {
  title: 'Console/Templates/Templates page',
  component: TemplatesPage,
  decorators: [withConsole({ path: '/templates', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof TemplatesPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
