import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import {
  authMe,
  kanbanCancelled,
  kanbanCompleted,
  kanbanConfirmed,
  kanbanPending,
  kanbanPickedUp,
} from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import KanbanPage from './KanbanPage';

const columns: Record<string, unknown> = {
  pending: kanbanPending,
  confirmed: kanbanConfirmed,
  picked_up: kanbanPickedUp,
  completed: kanbanCompleted,
  cancelled: kanbanCancelled,
};
const states = screenStates(
  {
    'GET /api/bookings': ({ url }) => ({
      status: 200,
      body: columns[url.searchParams.get('status') ?? ''] ?? { items: [], total: 0 },
    }),
  },
  { 'GET /api/bookings': { status: 200, body: { items: [], total: 0, page: 1, pageSize: 100 } } },
);
const scheduler = {
  ...authMe,
  id: 3,
  username: 'scheduler',
  displayName: 'Demo Scheduler',
  role: 'scheduler',
};

/** /scheduler/kanban-dashboard: bookings by status; cards move between columns by drag or keyboard. */
const meta = {
  title: 'Console/Kanban',
  component: KanbanPage,
  decorators: [
    withConsole({
      path: '/scheduler/kanban-dashboard',
      data: [[CURRENT_USER_KEY, scheduler]],
      network: true,
    }),
  ],
} satisfies Meta<typeof KanbanPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
