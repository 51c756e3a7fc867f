import { messages } from '@wellrest/core';
import { CalendarPlus } from 'lucide-react';
import { ShortcutHint } from '@/components/layout/shortcuts';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';

/** The dashboard's title block, with the new-booking button for a role that may book. */
export function DashboardHeader({ onNewBooking }: { onNewBooking?: (() => void) | undefined }) {
  const newBookingButton = onNewBooking ? (
    <ShortcutHint name="newBooking">
      <Button onClick={onNewBooking}>
        <CalendarPlus aria-hidden />
        {messages.booking.newBooking}
      </Button>
    </ShortcutHint>
  ) : undefined;
  return (
    <PageHeader
      title="Dashboard"
      description="Kit availability, pickups and returns at a glance."
      actions={newBookingButton}
    />
  );
}
