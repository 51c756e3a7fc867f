import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AvailabilityDay } from '@wellrest/core';
import '@/index.css';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AvailabilityCards } from './AvailabilityCards';
import { QuickActions } from './QuickActions';
import { StatCards } from './StatCards';
import { TodaysBookings } from './TodaysBookings';

const today = '2025-11-24';
const pickup = (id: number, name: string, status: 'confirmed' | 'pending' = 'confirmed') => ({
  id,
  patientId: id,
  patientName: name,
  testType: '2-day' as const,
  kitType: 'Somfit' as const,
  kitId: `SOM-00${id}`,
  status,
});
const days: AvailabilityDay[] = [
  {
    date: today,
    label: 'Today',
    availableUnits: 9,
    pickups: [
      { ...pickup(1, 'Avery Sampleton'), agreementSignedAt: '2025-11-24T14:05:00.000Z' },
      pickup(2, 'Blake Demoford', 'pending'),
      pickup(3, 'Casey Testwell'),
    ],
    dropoffs: [{ id: 7, patientId: 7, patientName: 'Devon Mockley', kitType: 'SleepView', kitId: 'SV-002' }],
  },
  { date: '2025-11-25', label: 'Tomorrow', availableUnits: 1, pickups: [], dropoffs: [] },
  {
    date: '2025-11-26',
    label: 'Wed, Nov 26',
    availableUnits: 0,
    pickups: [
      pickup(4, 'Emerson Placeholder'),
      pickup(5, 'Finley Fakington'),
      pickup(6, 'Gray Exampleby'),
      pickup(8, 'Harper Dummer'),
    ],
    dropoffs: [],
  },
];

/** The dashboard's cards with mocked data: availability, numbers, quick actions, today's list. */
function DashboardCards({
  loading = false,
  empty = false,
  readOnly = false,
}: {
  loading?: boolean;
  empty?: boolean;
  /** A role that may read the dashboard but not book, send agreements or sync (a technician). */
  readOnly?: boolean;
}) {
  return (
    <Router hook={memoryLocation({ path: '/' }).hook}>
      <div className="grid max-w-6xl gap-6 bg-slate-50 p-4">
        <AvailabilityCards
          days={empty ? [] : days}
          today={today}
          loading={loading}
          onSignAgreement={() => {}}
          canSign={!readOnly}
        />
        <StatCards
          loading={loading}
          stats={{
            activeBookings: 33,
            pendingBookings: 9,
            totalPatients: 40,
            upcomingWeek: 11,
            todaysPickups: 3,
            todaysReturns: 1,
            availableKits: 12,
            kitsInUse: 3,
            kitsOnShelf: 11,
            totalKits: 15,
          }}
        />
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <TodaysBookings
              loading={loading}
              bookings={
                empty
                  ? []
                  : [
                      {
                        id: 1,
                        patientId: 1,
                        patientName: 'Avery Sampleton',
                        kitId: 1,
                        kitLabel: 'SOM-001',
                        testType: '2-day',
                        kitType: 'Somfit',
                        status: 'confirmed',
                        startDate: today,
                        endDate: '2025-11-25',
                        returnDate: '2025-11-26',
                        notes: null,
                      },
                      {
                        id: 3,
                        patientId: 3,
                        patientName: 'Casey Testwell',
                        kitId: 3,
                        kitLabel: 'SOM-003',
                        testType: '3-day',
                        kitType: 'Somfit',
                        status: 'confirmed',
                        startDate: today,
                        endDate: '2025-11-26',
                        returnDate: '2025-11-27',
                        notes: null,
                      },
                    ]
              }
              onRefresh={() => {}}
              onChangeDuration={() => {}}
              canExtend={!readOnly}
              canReduce={!readOnly}
            />
          </div>
          <QuickActions
            onNewBooking={() => {}}
            onSyncGhl={() => {}}
            canBook={!readOnly}
            canSyncGhl={!readOnly}
          />
        </div>
      </div>
    </Router>
  );
}

const meta = {
  title: 'Console/Dashboard/Cards',
  component: DashboardCards,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof DashboardCards>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithData: Story = {};
export const Loading: Story = { args: { loading: true } };
export const Empty: Story = { args: { empty: true } };
export const ReadOnlyRole: Story = { args: { readOnly: true } };
