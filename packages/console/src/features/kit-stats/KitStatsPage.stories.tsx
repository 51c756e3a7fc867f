import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, kitStats } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import KitStatsPage from './KitStatsPage';

const none = {
  ...kitStats,
  byType: kitStats.byType.map((row) => ({ ...row, daysInUse: 0, bookings: 0, heldDays: 0, utilisation: 0 })),
  byKit: [],
};
const states = screenStates(
  { 'GET /api/kit-stats': { status: 200, body: kitStats } },
  { 'GET /api/kit-stats': { status: 200, body: none } },
);

/** /simple-kit-stats: utilisation per kit type and per kit over a period, charts and tables. */
const meta = {
  title: 'Console/Kit stats',
  component: KitStatsPage,
  decorators: [withConsole({ path: '/simple-kit-stats', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof KitStatsPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
