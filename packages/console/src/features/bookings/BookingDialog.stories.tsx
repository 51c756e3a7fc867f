import type { Meta, StoryObj } from '@storybook/react-vite';
import { addDays, type Booking, type Kit, messages, type Patient } from '@wellrest/core';
import '@/index.css';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Toaster } from '@/components/ui/toaster';
import { BookingForm } from './BookingForm';

// Mocked data only: the form computes availability from these, no request is made.
const today = '2025-11-24';
const patients: Patient[] = [
  {
    id: 1,
    name: 'Avery Sampleton',
    email: 'avery@example.test',
    phone: '(555) 555-0100',
    leadSource: 'Direct',
  },
  {
    id: 2,
    name: 'Blake Demoford',
    email: 'blake@example.test',
    phone: '(555) 555-0101',
    leadSource: 'Referral',
  },
];
const kits: Kit[] = [
  { id: 1, kitId: 'SOM-001', type: 'Somfit' },
  { id: 2, kitId: 'SOM-002', type: 'Somfit' },
  { id: 3, kitId: 'ZM-001', type: 'Z-Machine' },
  { id: 4, kitId: 'SV-001', type: 'SleepView' },
];
const booking = (id: number, kitId: number, startDate: string): Booking => ({
  id,
  patientId: 1,
  kitId,
  testType: '2-day',
  kitType: kits.find((k) => k.id === kitId)?.type ?? 'Somfit',
  status: 'confirmed',
  startDate,
  endDate: addDays(startDate, 1),
  returnDate: addDays(startDate, 2),
  notes: null,
});
// Somfit is down to one kit on Nov 25 (amber); SleepView is taken on Dec 2.
const bookings: Booking[] = [booking(10, 1, '2025-11-25'), booking(11, 4, '2025-12-02')];

function DialogFrame(props: Parameters<typeof BookingForm>[0]) {
  return (
    <Dialog open modal={false}>
      <DialogContent className="sm:max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{messages.booking.dialogTitle}</DialogTitle>
          <DialogDescription>Book a home sleep test.</DialogDescription>
        </DialogHeader>
        <BookingForm {...props} />
      </DialogContent>
      <Toaster />
    </Dialog>
  );
}

/** The 'Create New Booking' dialog with mocked patients, kits and bookings. */
const meta = {
  title: 'Console/Bookings/Create New Booking',
  component: DialogFrame,
  args: { patients, kits, bookings, today, onSubmit: () => {}, onCancel: () => {} },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof DialogFrame>;

export default meta;
type Story = StoryObj<typeof meta>;

export const ExistingPatient: Story = {};

export const PreselectedDate: Story = {
  args: {
    defaults: { startDate: '2025-11-26', kitType: 'Somfit', testType: '3-day', patientId: 2 },
    showDateTip: true,
  },
};

export const Submitting: Story = {
  args: { defaults: { startDate: '2025-11-26', kitType: 'Z-Machine', patientId: 1 }, submitting: true },
};

export const LoadingPatients: Story = { args: { patients: [], loading: true } };
