import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, bookingsRange, sleepTestKits } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import CalendarPage from './CalendarPage';

const states = screenStates(
  {
    'GET /api/sleep-test-kits': { status: 200, body: sleepTestKits },
    'GET /api/bookings': { status: 200, body: bookingsRange },
  },
  { 'GET /api/bookings': { status: 200, body: [] } },
);

/** /calendar: bookings by day with the kits free each day. */
const meta = {
  title: 'Console/Calendar',
  component: CalendarPage,
  decorators: [withConsole({ path: '/calendar', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof CalendarPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
