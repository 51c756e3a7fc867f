import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import {
  authMe,
  bookingsRange,
  inventoryOverview,
  scannerSettings,
} from '../../../../../.storybook/demoData';
import { screenStates, stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import { CameraScanDialog } from './CameraScanDialog';
import ScannerSetupPage from './ScannerSetupPage';
import { ScanStation } from './ScanStation';

// The scanning desks (check-out and check-in), the scanner set-up page and the camera dialog.

const admin = [CURRENT_USER_KEY, authMe] as const;
const desk = {
  'GET /api/scanner-settings': { status: 200, body: scannerSettings },
  'GET /api/inventory/overview': { status: 200, body: inventoryOverview },
  'GET /api/bookings': { status: 200, body: bookingsRange },
};
const states = screenStates(desk, { 'GET /api/bookings': { status: 200, body: [] } });

const meta = {
  title: 'Console/Scanning',
  decorators: [withConsole({ path: '/inventory?tab=checkout', data: [admin], network: true })],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const CheckOutDesk: Story = { ...states.Filled, render: () => <ScanStation mode="checkout" /> };
export const CheckOutDeskEmpty: Story = { ...states.Empty, render: () => <ScanStation mode="checkout" /> };
export const CheckOutDeskLoading: Story = {
  ...states.Loading,
  render: () => <ScanStation mode="checkout" />,
};
export const CheckOutDeskLoadFailed: Story = {
  ...states.LoadFailed,
  render: () => <ScanStation mode="checkout" />,
};
export const CheckInDesk: Story = { ...states.Filled, render: () => <ScanStation mode="checkin" /> };

/** A kit label typed at the check-in desk, and the server's refusal. */
export const CheckInScanRefused: Story = {
  beforeEach: stubFetch({
    ...desk,
    'POST /api/scans': { status: 409, body: { error: 'SOM-004 is not checked out: nothing to check in.' } },
  }),
  render: () => <ScanStation mode="checkin" />,
  play: async ({ canvasElement }) => {
    await stubbedCallsSettled();
    const input = canvasElement.querySelector<HTMLInputElement>(
      'input[placeholder="Scan or type a kit label"]',
    );
    if (!input) throw new Error('no scan field');
    input.focus();
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setValue?.call(input, 'SOM-004');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await stubbedCallsSettled();
  },
};

const setup = { 'GET /api/scanner-settings': { status: 200, body: scannerSettings } };
const setupStates = screenStates(setup, {});

export const ScannerSetup: Story = { ...setupStates.Filled, render: () => <ScannerSetupPage /> };
export const ScannerSetupLoading: Story = { ...setupStates.Loading, render: () => <ScannerSetupPage /> };
export const ScannerSetupLoadFailed: Story = {
  ...setupStates.LoadFailed,
  render: () => <ScannerSetupPage />,
};

/** Without a camera (as in a headless browser) the dialog says so and offers typing instead. */
export const CameraDialog: Story = {
  render: () => <CameraScanDialog open onOpenChange={() => {}} onDetected={() => {}} />,
  play: () => stubbedCallsSettled(),
};
