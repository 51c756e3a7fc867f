import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import {
  authMe,
  bookings,
  dashboardDailyAvailability,
  dashboardStats,
} from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import DashboardPage from './DashboardPage';

const states = screenStates(
  {
    'GET /api/dashboard/daily-availability': { status: 200, body: dashboardDailyAvailability },
    'GET /api/dashboard/stats': { status: 200, body: dashboardStats },
    'GET /api/bookings': { status: 200, body: bookings },
  },
  {
    'GET /api/dashboard/daily-availability': { status: 200, body: [] },
    'GET /api/bookings': { status: 200, body: [] },
  },
);

/** /: availability, stats, quick actions and today's bookings. */
const meta = {
  title: 'Console/Dashboard/Page',
  component: DashboardPage,
  decorators: [withConsole({ path: '/', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof DashboardPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
