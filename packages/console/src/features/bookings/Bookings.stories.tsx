import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import {
  authMe,
  booking32,
  booking32Ext,
  booking32Red,
  bookings,
  bookingsPage,
  patients,
  sleepTestKits,
} from '../../../../../.storybook/demoData';
import {
  type StubRoutes,
  screenStates,
  stubbedCallsSettled,
  stubFetch,
} from '../../../../../.storybook/fetchStub';
import { BookingDetailSheet } from './BookingDetailSheet';
import { BookingDialog } from './BookingDialog';
import BookingPage from './BookingPage';
import BookingsManagementPage from './BookingsManagementPage';
import { CancelBookingDialog } from './CancelBookingDialog';
import { TestDurationDialog } from './TestDurationDialog';

// /bookings-management, /booking, the booking's detail sheet and its dialogs, with demo bookings.

const admin = [CURRENT_USER_KEY, authMe] as const;

/** GET /api/bookings answers a page when asked for one, else the whole list (as the server does). */
function bookingsAnswer(page: { items: unknown[]; total: number }, list: unknown[]) {
  return ({ url }: { url: URL }) => ({
    status: 200,
    body: url.searchParams.has('page') ? { ...bookingsPage, ...page } : list,
  });
}

const filled: StubRoutes = {
  'GET /api/bookings': bookingsAnswer(bookingsPage, bookings),
  'GET /api/patients': { status: 200, body: patients },
  'GET /api/sleep-test-kits': { status: 200, body: sleepTestKits },
};
const states = screenStates(filled, { 'GET /api/bookings': bookingsAnswer({ items: [], total: 0 }, []) });

const meta = {
  title: 'Console/Bookings',
  decorators: [withConsole({ path: '/bookings-management', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Management: Story = { ...states.Filled, render: () => <BookingsManagementPage /> };
export const ManagementEmpty: Story = { ...states.Empty, render: () => <BookingsManagementPage /> };
export const ManagementLoading: Story = { ...states.Loading, render: () => <BookingsManagementPage /> };
export const ManagementLoadFailed: Story = { ...states.LoadFailed, render: () => <BookingsManagementPage /> };

export const NewBookingPage: Story = {
  ...states.Filled,
  decorators: [withConsole({ path: '/booking', data: [admin], network: true })],
  render: () => <BookingPage />,
};
export const NewBookingPageLoading: Story = {
  ...states.Loading,
  decorators: [withConsole({ path: '/booking', data: [admin], network: true })],
  render: () => <BookingPage />,
};

const detail = (reply: StubRoutes[string]) => ({
  beforeEach: stubFetch({
    'GET /api/bookings/32': reply,
    'GET /api/bookings/32/dropoffs': { status: 200, body: [] },
  }),
  render: () => <BookingDetailSheet bookingId={32} onClose={() => {}} />,
  play: () => stubbedCallsSettled(),
});

export const DetailSheet: Story = detail({ status: 200, body: booking32 });
export const DetailSheetSigned: Story = detail({
  status: 200,
  body: {
    ...booking32,
    agreementStatus: 'signed',
    agreement: { status: 'signed', sentAt: '2026-11-26T09:25:16.672Z', signedAt: '2026-11-26T09:41:02.000Z' },
  },
});
export const DetailSheetLoading: Story = detail({ network: 'pending' });
export const DetailSheetLoadFailed: Story = detail({ status: 500, body: { error: 'Something went wrong' } });
export const DetailSheetNotFound: Story = detail({ status: 404, body: { error: 'Booking not found' } });

export const CancelDialog: Story = {
  render: () => (
    <CancelBookingDialog
      open
      patientName="Logan Dummer"
      pending={false}
      onConfirm={() => {}}
      onClose={() => {}}
    />
  ),
};
export const CancelDialogCancelling: Story = {
  render: () => (
    <CancelBookingDialog open patientName="Logan Dummer" pending onConfirm={() => {}} onClose={() => {}} />
  ),
};

const twoDay = { ...booking32, testType: '2-day', endDate: '2026-11-27', returnDate: '2026-11-30' };
const duration = (change: 'extend' | 'reduce', path: string, reply: StubRoutes[string]) => ({
  beforeEach: stubFetch({ [path]: reply }),
  render: () => (
    <TestDurationDialog
      change={change}
      booking={change === 'extend' ? twoDay : booking32}
      onClose={() => {}}
    />
  ),
  play: () => stubbedCallsSettled(),
});
const EXT = 'GET /api/bookings/32/extension-eligibility';
const RED = 'GET /api/bookings/32/reduction-eligibility';

export const ExtendDialog: Story = duration('extend', EXT, {
  status: 200,
  body: { ...booking32Ext, canExtend: true, reason: null, availableKitsCount: 2 },
});
export const ExtendDialogNeedsKitSwap: Story = duration('extend', EXT, {
  status: 200,
  body: {
    ...booking32Ext,
    canExtend: true,
    requiresKitSwap: true,
    reason: null,
    swapWarning: 'SOM-001 is booked on Nov 29: the test continues on SOM-003.',
    availableKitsCount: 1,
    targetKitId: 3,
  },
});
export const ExtendDialogNotPossible: Story = duration('extend', EXT, {
  status: 200,
  body: { ...booking32Ext, reason: 'No Somfit kit is free for a third night.' },
});
export const ExtendDialogChecking: Story = duration('extend', EXT, { network: 'pending' });
export const ExtendDialogCheckFailed: Story = duration('extend', EXT, {
  status: 500,
  body: { error: 'Something went wrong' },
});
export const ReduceDialog: Story = duration('reduce', RED, { status: 200, body: booking32Red });

/** Create New Booking as the dashboard opens it, loading patients, kits and bookings itself. */
export const NewBookingDialog: Story = {
  ...states.Filled,
  render: () => <BookingDialog open onOpenChange={() => {}} />,
};
export const NewBookingDialogForPatientOnDate: Story = {
  ...states.Filled,
  render: () => <BookingDialog open onOpenChange={() => {}} patientId={21} preselectedDate="2026-12-02" />,
};
export const NewBookingDialogLoading: Story = {
  ...states.Loading,
  render: () => <BookingDialog open onOpenChange={() => {}} />,
};
export const NewBookingDialogLoadFailed: Story = {
  ...states.LoadFailed,
  render: () => <BookingDialog open onOpenChange={() => {}} />,
};
