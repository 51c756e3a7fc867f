import type { Meta, StoryObj } from '@storybook/react-vite';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { withConsole } from '../../../../../.storybook/consoleStory';
import { authMe, inventoryOverview, kits, kits1History } from '../../../../../.storybook/demoData';
import { screenStates, stubbedCallsSettled, stubFetch } from '../../../../../.storybook/fetchStub';
import InventoryPage from './InventoryPage';
import { KitDetailSheet } from './KitDetailSheet';
import { KitDialog } from './KitDialog';
import { KitLabelsDialog } from './KitLabels';
import type { InventoryKit } from './queries';
import { UpkeepDialog } from './UpkeepDialog';

// /inventory and its dialogs with the demo fleet; each tab in its loading, empty, error and filled state.

const fleet = kits as InventoryKit[];
const inCleaning: InventoryKit[] = fleet.slice(0, 3).map((kit, index) => ({
  ...kit,
  status: 'cleaning',
  cleaningSince: '2026-11-24',
  cleaningDueOn: index === 0 ? '2026-11-25' : '2026-11-27',
  cleaningOverdue: index === 0,
}));
const inMaintenance: InventoryKit[] = fleet.slice(3, 5).map((kit) => ({
  ...kit,
  status: 'maintenance',
  notes: 'Oximeter sensor replaced',
  lastMaintenanceOn: '2026-10-02',
}));
const schedules = {
  schedules: [
    {
      kitType: 'Somfit',
      everyDays: 90,
      notes: 'Battery check and firmware update',
      updatedAt: '2026-10-01T14:00:00Z',
    },
    { kitType: 'SleepView', everyDays: 180, notes: null, updatedAt: '2026-09-12T14:00:00Z' },
  ],
  due: [
    { kitId: 11, kitLabel: 'SV-001', kitType: 'SleepView', lastDoneOn: '2026-05-20', dueOn: '2026-11-16' },
  ],
};

/** Answers GET /api/kits by its status filter, as the server does. */
function kitsAnswer(list: InventoryKit[]) {
  return ({ url }: { url: URL }) => {
    const status = url.searchParams.get('status');
    if (status === 'cleaning') return { status: 200, body: list.length ? inCleaning : [] };
    if (status === 'maintenance') return { status: 200, body: list.length ? inMaintenance : [] };
    return { status: 200, body: list };
  };
}

const filled = {
  'GET /api/kits': kitsAnswer(fleet),
  'GET /api/inventory/overview': { status: 200, body: inventoryOverview },
  'GET /api/maintenance-schedules': { status: 200, body: schedules },
  'GET /api/scanner-settings': { status: 200, body: { mode: 'keyboard', suffix: 'Enter', minLength: 4 } },
  'GET /api/scans': { status: 200, body: [] },
};
const empty = {
  'GET /api/kits': kitsAnswer([]),
  'GET /api/inventory/overview': {
    status: 200,
    body: { ...inventoryOverview, total: 0, overdueCleanings: [], overdueReturns: [], maintenanceDue: [] },
  },
  'GET /api/maintenance-schedules': { status: 200, body: { schedules: [], due: [] } },
};
const states = screenStates(filled, empty);
const admin = [CURRENT_USER_KEY, authMe] as const;

const meta = {
  title: 'Console/Inventory',
  component: InventoryPage,
  decorators: [withConsole({ path: '/inventory', data: [admin], network: true })],
} satisfies Meta<typeof InventoryPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Kits: Story = states.Filled;
export const KitsEmpty: Story = states.Empty;
export const KitsLoading: Story = states.Loading;
export const KitsLoadFailed: Story = states.LoadFailed;

const atTab = (tab: string) => [withConsole({ path: `/inventory?tab=${tab}`, data: [admin], network: true })];

export const Cleaning: Story = { ...states.Filled, decorators: atTab('cleaning') };
export const CleaningEmpty: Story = { ...states.Empty, decorators: atTab('cleaning') };
export const Maintenance: Story = { ...states.Filled, decorators: atTab('maintenance') };
export const MaintenanceEmpty: Story = { ...states.Empty, decorators: atTab('maintenance') };
export const MaintenanceLoadFailed: Story = { ...states.LoadFailed, decorators: atTab('maintenance') };
export const CheckOutDesk: Story = { ...states.Filled, decorators: atTab('checkout') };

// The dialogs, open, over an empty page.

const kit = fleet[0] as InventoryKit;

export const AddKitDialog: Story = {
  render: () => <KitDialog open kit={null} onOpenChange={() => {}} />,
};

export const EditKitDialog: Story = {
  render: () => <KitDialog open kit={kit} onOpenChange={() => {}} />,
};

export const EditKitSaveFailed: Story = {
  beforeEach: stubFetch({
    'PATCH /api/kits/11': { status: 409, body: { error: 'Another kit already has the label SV-001.' } },
  }),
  render: () => <KitDialog open kit={kit} onOpenChange={() => {}} />,
  play: async () => {
    const save = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save changes');
    save?.click();
    await stubbedCallsSettled();
  },
};

export const KitDetails: Story = {
  beforeEach: stubFetch({ 'GET /api/kits/11/history': { status: 200, body: kits1History } }),
  render: () => <KitDetailSheet kit={kit} onClose={() => {}} onEdit={() => {}} onPrintLabel={() => {}} />,
  play: () => stubbedCallsSettled(),
};

export const KitDetailsNoHistory: Story = {
  beforeEach: stubFetch({ 'GET /api/kits/11/history': { status: 200, body: [] } }),
  render: () => <KitDetailSheet kit={kit} onClose={() => {}} onEdit={() => {}} onPrintLabel={() => {}} />,
  play: () => stubbedCallsSettled(),
};

export const KitDetailsLoading: Story = {
  beforeEach: stubFetch({ 'GET /api/kits/11/history': { network: 'pending' } }),
  render: () => <KitDetailSheet kit={kit} onClose={() => {}} onEdit={() => {}} onPrintLabel={() => {}} />,
};

export const KitDetailsLoadFailed: Story = {
  beforeEach: stubFetch({
    'GET /api/kits/11/history': { status: 500, body: { error: 'Something went wrong' } },
  }),
  render: () => <KitDetailSheet kit={kit} onClose={() => {}} onEdit={() => {}} onPrintLabel={() => {}} />,
  play: () => stubbedCallsSettled(),
};

export const LabelsDialog: Story = {
  render: () => <KitLabelsDialog kits={fleet.slice(0, 3)} onClose={() => {}} />,
};

export const LogCleaningDialog: Story = {
  render: () => (
    <UpkeepDialog upkeep={{ kind: 'cleaning', kitId: 11, kitLabel: 'SV-001' }} onClose={() => {}} />
  ),
};

export const LogMaintenanceDialog: Story = {
  render: () => (
    <UpkeepDialog upkeep={{ kind: 'maintenance', kitId: 11, kitLabel: 'SV-001' }} onClose={() => {}} />
  ),
};
