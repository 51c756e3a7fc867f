import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe } from '../../../../../.storybook/demoData';
import { screenStates } from '../../../../../.storybook/fetchStub';
import ConsentsPage from './ConsentsPage';

const signed = [
  {
    id: 12,
    bookingId: 41,
    patientName: 'Avery Sampleton',
    signedAt: '2026-11-24T15:12:00Z',
    signerName: 'Avery Sampleton',
  },
  {
    id: 11,
    bookingId: 38,
    patientName: 'Blake Demoford',
    signedAt: '2026-11-23T13:40:00Z',
    signerName: 'Jordan Demoford (guardian)',
  },
  {
    id: 10,
    bookingId: 35,
    patientName: 'Casey Testwell',
    signedAt: '2026-11-20T09:05:00Z',
    signerName: 'Casey Testwell',
  },
];
const states = screenStates(
  { 'GET /api/agreements': { status: 200, body: signed } },
  { 'GET /api/agreements': { status: 200, body: [] } },
);

/** /consents: signed agreements with their PDFs. */
const meta = {
  title: 'Console/Consents',
  component: ConsentsPage,
  decorators: [withConsole({ path: '/consents', data: [[CURRENT_USER_KEY, authMe]], network: true })],
} satisfies Meta<typeof ConsentsPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Filled: Story = states.Filled;
export const Empty: Story = states.Empty;
export const Loading: Story = states.Loading;
export const LoadFailed: Story = states.LoadFailed;
