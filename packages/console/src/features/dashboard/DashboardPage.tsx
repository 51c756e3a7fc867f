import { AVAILABILITY_CARD_DAYS, type Pickup } from '@wellrest/core';
import { lazy, Suspense, useDeferredValue, useMemo, useState } from 'react';
import { ErrorState } from '@/components/QueryState';
import { useAbility } from '@/lib/ability';
import { useOpenedOnce } from '@/lib/useOpenedOnce';
import {
  type BookingRow,
  practiceToday,
  useBookings,
  useDailyAvailability,
  useDashboardStats,
} from '../bookings/queries';
import type { DurationChange } from '../bookings/TestDurationDialog';
import { AvailabilityCards } from './AvailabilityCards';
import { DashboardHeader } from './DashboardHeader';
import { todaysBookings } from './dashboardData';
import { QuickActions } from './QuickActions';
import { StatCards } from './StatCards';
import { TodaysBookings } from './TodaysBookings';
import { useGhlSync, useInitiateAgreement, useRefreshBookingData } from './useDashboardActions';

// The dialogs load when first opened, keeping their code out of the dashboard's first paint.
const BookingDialog = lazy(() =>
  import('../bookings/BookingDialog').then((m) => ({ default: m.BookingDialog })),
);
const TestDurationDialog = lazy(() =>
  import('../bookings/TestDurationDialog').then((m) => ({ default: m.TestDurationDialog })),
);

/** The booking whose test duration is being changed; kept while its dialog closes. */
type DurationTarget = { change: DurationChange; booking: BookingRow; open: boolean };

/** The dashboard (/): availability for the next days, the numbers, quick actions and today's tests. */
export default function DashboardPage() {
  const ability = useAbility();
  const canBook = ability.can('create', 'Booking');
  // The cards show the first days only (spec §9): ask for those.
  const availability = useDailyAvailability(AVAILABILITY_CARD_DAYS);
  const stats = useDashboardStats();
  const refresh = useRefreshBookingData();
  const ghlSync = useGhlSync();
  const agreement = useInitiateAgreement();
  const [bookingOpen, setBookingOpen] = useState(false);
  const bookingMounted = useOpenedOnce(bookingOpen);
  const [durationChange, setDurationChange] = useState<DurationTarget | null>(null);

  // The first availability day is today in the practice's time zone, as the server counts it.
  const today = availability.data?.[0]?.date ?? practiceToday();
  const bookings = useBookings({ from: today, to: today });
  const todays = useMemo(() => todaysBookings(bookings.data ?? [], today), [bookings.data, today]);
  // The lists draw as deferred updates, which React renders in slices: the page stays
  // responsive while they arrive, showing their loading state (or the previous lists) meanwhile.
  const availabilityShown = useDeferredValue(availability.data);
  const todaysShown = useDeferredValue(bookings.data === undefined ? undefined : todays);

  return (
    <>
      <DashboardHeader onNewBooking={canBook ? () => setBookingOpen(true) : undefined} />

      <div className="grid gap-6">
        <section aria-labelledby="availability-title" className="grid gap-3">
          <h2 id="availability-title" className="text-base font-semibold text-slate-900">
            Kit availability
          </h2>
          {availability.isError ? (
            <ErrorState error={availability.error} onRetry={() => void availability.refetch()} />
          ) : (
            <AvailabilityCards
              days={availabilityShown ?? []}
              today={today}
              loading={availabilityShown === undefined}
              signingBookingId={agreement.isPending ? (agreement.variables ?? null) : null}
              onSignAgreement={(pickup: Pickup) => agreement.mutate(pickup.id)}
              canSign={ability.can('create', 'Agreement')}
            />
          )}
        </section>

        {/* Printed, the dashboard is the day's pickups and returns: the rest stays on screen. */}
        <div data-print-hide>
          {stats.isError ? (
            <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
          ) : (
            <StatCards stats={stats.data} loading={stats.isPending} />
          )}
        </div>

        <div className="grid gap-6 lg:grid-cols-3" data-print-hide>
          <div className="lg:col-span-2">
            {bookings.isError ? (
              <ErrorState error={bookings.error} onRetry={() => void bookings.refetch()} />
            ) : (
              <TodaysBookings
                bookings={todaysShown ?? []}
                loading={todaysShown === undefined}
                refreshing={refresh.isPending}
                onRefresh={() => refresh.mutate()}
                onChangeDuration={(change, booking) => setDurationChange({ change, booking, open: true })}
                canExtend={ability.can('extend', 'Booking')}
                canReduce={ability.can('reduce', 'Booking')}
              />
            )}
          </div>
          <QuickActions
            onNewBooking={() => setBookingOpen(true)}
            onSyncGhl={() => ghlSync.mutate()}
            syncing={ghlSync.isPending}
            canBook={canBook}
            canManageInventory={ability.can('read', 'Kit')}
            canSyncGhl={ability.can('sync', 'Ghl')}
          />
        </div>
      </div>

      <Suspense fallback={null}>
        {canBook && bookingMounted && <BookingDialog open={bookingOpen} onOpenChange={setBookingOpen} />}
        {durationChange && (
          <TestDurationDialog
            change={durationChange.change}
            booking={durationChange.open ? durationChange.booking : null}
            onClose={() => setDurationChange((current) => current && { ...current, open: false })}
          />
        )}
      </Suspense>
    </>
  );
}
