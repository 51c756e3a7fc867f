import {
  addDays,
  formatDate,
  formatReturnDate,
  isExtendable,
  isReducible,
  messages,
  searchResultUrl,
} from '@wellrest/core';
import { ArrowDown, ArrowUp, ArrowUpDown, CalendarPlus, ClipboardList } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { BookingDialog } from './BookingDialog';
import { type BookingSort, type BookingSortField, nextSort, sortBookings } from './bookingSort';
import { type BookingRow, practiceToday, useBookings } from './queries';
import { StatusBadge } from './StatusBadge';
import { type DurationChange, TestDurationDialog } from './TestDurationDialog';

const COLUMNS: { field: BookingSortField; label: string }[] = [
  { field: 'patientName', label: 'Patient' },
  { field: 'kitType', label: 'Test and kit' },
  { field: 'startDate', label: 'Start' },
  { field: 'returnDate', label: 'Return' },
  { field: 'status', label: 'Status' },
];

function SortHeader({
  field,
  label,
  sort,
  onSort,
}: {
  field: BookingSortField;
  label: string;
  sort: BookingSort;
  onSort: (field: BookingSortField) => void;
}) {
  const active = sort.field === field;
  const Icon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-4 py-2 font-medium"
    >
      <button
        type="button"
        onClick={() => onSort(field)}
        className="-mx-2 inline-flex items-center gap-1 rounded px-2 py-1 uppercase hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {label}
        <Icon className={cn('size-3.5', !active && 'text-slate-400')} aria-hidden />
      </button>
    </th>
  );
}

/** The booking whose test duration is being changed; kept while its dialog closes. */
type DurationTarget = { change: DurationChange; booking: BookingRow; open: boolean };

/** All bookings in a sortable table; `?booking={id}` (a search result) highlights one. */
export default function BookingsManagementPage() {
  // The last four weeks and everything ahead; the full history is searchable by filters.
  const bookings = useBookings({ from: addDays(practiceToday(), -28) });
  const search = useSearch();
  const highlighted = Number(new URLSearchParams(search).get('booking')) || null;
  const [sort, setSort] = useState<BookingSort>({ field: 'startDate', direction: 'asc' });
  const [bookingOpen, setBookingOpen] = useState(false);
  const [durationChange, setDurationChange] = useState<DurationTarget | null>(null);
  const rows = useMemo(() => sortBookings(bookings.data ?? [], sort), [bookings.data, sort]);

  const loaded = bookings.isSuccess;
  useEffect(() => {
    if (highlighted === null || !loaded) return;
    document.getElementById(`booking-${highlighted}`)?.scrollIntoView({ block: 'center' });
  }, [highlighted, loaded]);

  return (
    <>
      <PageHeader
        title="Bookings"
        description="Every booking, sortable by any column."
        actions={
          <Button onClick={() => setBookingOpen(true)}>
            <CalendarPlus aria-hidden />
            {messages.booking.newBooking}
          </Button>
        }
      />
      <QueryState query={bookings}>
        {rows.length === 0 ? (
          <EmptyState icon={<ClipboardList className="size-6" aria-hidden />} title="No bookings yet" />
        ) : (
          <Card className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Bookings</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600">
                <tr>
                  {COLUMNS.map((column) => (
                    <SortHeader
                      key={column.field}
                      {...column}
                      sort={sort}
                      onSort={(field) => setSort(nextSort(sort, field))}
                    />
                  ))}
                  <th scope="col" className="px-4 py-2 text-xs font-medium uppercase">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((booking) => (
                  <tr
                    key={booking.id}
                    id={`booking-${booking.id}`}
                    aria-current={booking.id === highlighted ? 'true' : undefined}
                    className={cn(
                      booking.id === highlighted && 'bg-accent-50 ring-2 ring-accent-600 ring-inset',
                    )}
                  >
                    <td className="px-4 py-3">
                      <Link
                        href={searchResultUrl('patient', booking.patientId)}
                        className="font-medium text-slate-900 hover:underline"
                      >
                        {booking.patientName || messages.labels.unknownPatient}
                      </Link>
                    </td>
                    <td className="px-4 py-3 text-slate-700">
                      {booking.testType} · {booking.kitType}
                      <span className="block text-xs text-slate-500">
                        {booking.kitLabel || messages.labels.unknownKit}
                      </span>
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                      {formatDate(booking.startDate)}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                      {formatReturnDate(booking.returnDate)}
                    </td>
                    <td className="px-4 py-3">
                      <StatusBadge status={booking.status} />
                    </td>
                    <td className="px-4 py-3 text-right">
                      {isExtendable(booking) && (
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setDurationChange({ change: 'extend', booking, open: true })}
                        >
                          {messages.extension.confirmButton}
                        </Button>
                      )}
                      {isReducible(booking) && (
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setDurationChange({ change: 'reduce', booking, open: true })}
                        >
                          {messages.reduction.confirmButton}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        )}
      </QueryState>
      <BookingDialog open={bookingOpen} onOpenChange={setBookingOpen} />
      <TestDurationDialog
        change={durationChange?.change ?? 'extend'}
        booking={durationChange?.open ? durationChange.booking : null}
        onClose={() => setDurationChange((current) => current && { ...current, open: false })}
      />
    </>
  );
}
