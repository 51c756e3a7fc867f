import { formatDate, formatReturnDate, isExtendable, isReducible, messages } from '@wellrest/core';
import { CalendarClock, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LinesSkeleton } from '@/components/ui/skeleton';
import type { BookingRow } from '../bookings/queries';
import { StatusBadge } from '../bookings/StatusBadge';
import type { DurationChange } from '../bookings/TestDurationDialog';
import { patientAnchorHref } from './dashboardData';

/**
 * Rows shown before "Show all": a clinic network can start hundreds of tests a day, and the
 * dashboard should not draw them all before anyone asks.
 */
export const TODAYS_BOOKINGS_SHOWN = 25;

/** Today's Bookings: the tests starting today, with Refresh, View All and extend / reduce. */
export function TodaysBookings({
  bookings,
  loading = false,
  refreshing = false,
  onRefresh,
  onChangeDuration,
  canExtend = true,
  canReduce = true,
}: {
  /** Already filtered to today and sorted. */
  bookings: BookingRow[];
  loading?: boolean;
  refreshing?: boolean;
  onRefresh: () => void;
  onChangeDuration: (change: DurationChange, booking: BookingRow) => void;
  /** The user's role may extend (reduce) bookings: without it the buttons are not offered. */
  canExtend?: boolean;
  canReduce?: boolean;
}) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? bookings : bookings.slice(0, TODAYS_BOOKINGS_SHOWN);
  return (
    <Card role="region" aria-labelledby="todays-bookings-title">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle id="todays-bookings-title" className="flex items-center gap-2">
          <CalendarClock className="size-4 text-slate-500" aria-hidden />
          {messages.dashboard.todaysBookings}
        </CardTitle>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={onRefresh}
            disabled={refreshing}
            aria-busy={refreshing}
          >
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden />
            {messages.refresh.button}
          </Button>
          <Button variant="outline" size="sm" asChild>
            <Link href="/bookings-management">{messages.dashboard.viewAll}</Link>
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {loading ? (
          <LinesSkeleton lines={4} />
        ) : bookings.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
            {messages.emptyStates.noBookingsToday}
          </p>
        ) : (
          <>
            <ul className="divide-y divide-slate-100">
              {shown.map((booking) => (
                <li
                  key={booking.id}
                  className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
                  data-booking-id={booking.id}
                >
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link
                        href={patientAnchorHref(booking.patientId)}
                        className="truncate font-medium text-slate-900 hover:underline"
                      >
                        {booking.patientName || messages.labels.unknownPatient}
                      </Link>
                      <StatusBadge status={booking.status} />
                    </div>
                    <p className="mt-0.5 text-xs text-slate-600">
                      {booking.testType} · {booking.kitType} ·{' '}
                      {booking.kitLabel || messages.labels.unknownKit}
                    </p>
                    <p className="text-xs text-slate-600">
                      {formatDate(booking.startDate)} → return {formatReturnDate(booking.returnDate)}
                    </p>
                  </div>
                  <div className="flex shrink-0 gap-2">
                    {canExtend && isExtendable(booking) && (
                      <Button variant="outline" size="sm" onClick={() => onChangeDuration('extend', booking)}>
                        {messages.extension.confirmButton}
                      </Button>
                    )}
                    {canReduce && isReducible(booking) && (
                      <Button variant="outline" size="sm" onClick={() => onChangeDuration('reduce', booking)}>
                        {messages.reduction.confirmButton}
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
            {shown.length < bookings.length && (
              <Button variant="ghost" size="sm" className="mt-2 w-full" onClick={() => setShowAll(true)}>
                {messages.dashboard.showAllToday(bookings.length)}
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
