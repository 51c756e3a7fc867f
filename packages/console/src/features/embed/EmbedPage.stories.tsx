import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import { BookingEmbedPage, EmbedPage, ReferralEmbedPage, SignupEmbedPage } from './EmbedPage';

const keys = [
  {
    id: 1,
    name: 'Riverside Sleep Partners',
    key: 'wr_pk_demo_riverside_0001',
    allowedOrigins: ['https://riverside-sleep.example'],
    createdAt: '2026-11-20T14:00:00.000Z',
    revokedAt: null,
    lastUsedAt: '2026-11-25T18:12:00.000Z',
    submissionsLast30Days: 14,
  },
  {
    id: 2,
    name: 'Lakeside Family Practice',
    key: 'wr_pk_demo_lakeside_0002',
    allowedOrigins: ['https://lakeside-family.example', 'https://www.lakeside-family.example'],
    createdAt: '2026-10-02T14:00:00.000Z',
    revokedAt: '2026-11-01T10:00:00.000Z',
    lastUsedAt: null,
    submissionsLast30Days: 0,
  },
];
const states = screenStates(
  {
    'GET /api/admin/embed-keys': { status: 200, body: keys },
    'GET /api/admin/widget-scripts': { status: 200, body: [] },
  },
  { 'GET /api/admin/embed-keys': { status: 200, body: [] } },
);

/** The embed pages: embed keys, the snippet and a live preview (no widget script is served here). */
const meta = {
  title: 'Console/Embed',
  component: EmbedPage,
  args: { widget: 'booking' },
  decorators: [withConsole({ path: '/widget-embed', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof EmbedPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const BookingWidget: Story = { ...states.Filled, render: () => <BookingEmbedPage /> };
export const ReferralWidget: Story = { ...states.Filled, render: () => <ReferralEmbedPage /> };
export const SignupWidget: Story = { ...states.Filled, render: () => <SignupEmbedPage /> };
export const NoKeys: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
