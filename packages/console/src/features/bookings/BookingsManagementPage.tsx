import {
  BOOKING_STATUSES,
  type BookingStatus,
  formatDate,
  formatReturnDate,
  KIT_TYPES,
  type KitType,
  messages,
  searchResultUrl,
} from '@wellrest/core';
import { CalendarPlus, ChevronLeft, ChevronRight, ClipboardList, FilterX } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { AgreementBadge, BookingDetailSheet } from './BookingDetailSheet';
import { BookingDialog } from './BookingDialog';
import {
  EMPTY_FILTERS,
  filtersSearch,
  hasFilters,
  openBookingId,
  parseFilters,
  withOpenBooking,
} from './bookingFilters';
import { PatientCombobox } from './PatientCombobox';
import { BOOKING_LIST_PAGE_SIZE, type BookingListFilters, useBookingPage, usePatients } from './queries';
import { StatusBadge, statusLabel } from './StatusBadge';

function Filters({
  filters,
  onChange,
}: {
  filters: BookingListFilters;
  onChange: (filters: BookingListFilters) => void;
}) {
  const id = useId();
  const patients = usePatients();
  const set = (patch: Partial<BookingListFilters>) => onChange({ ...filters, ...patch, page: 1 });
  const toggle = (status: BookingStatus) =>
    set({
      status: filters.status.includes(status)
        ? filters.status.filter((s) => s !== status)
        : [...filters.status, status],
    });

  return (
    <Card className="mb-4 grid gap-4 p-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">Status</legend>
        <div className="flex flex-wrap gap-2">
          {BOOKING_STATUSES.map((status) => {
            const on = filters.status.includes(status);
            return (
              <button
                key={status}
                type="button"
                aria-pressed={on}
                onClick={() => toggle(status)}
                className={cn(
                  'rounded-full border px-3 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600',
                  on
                    ? 'border-accent-700 bg-accent-700 text-white'
                    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                )}
              >
                {statusLabel(status)}
              </button>
            );
          })}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-kit`}>Kit type</Label>
          <NativeSelect
            id={`${id}-kit`}
            value={filters.kitType ?? ''}
            onChange={(event) => set({ kitType: (event.target.value || null) as KitType | null })}
          >
            <option value="">All kit types</option>
            {KIT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={filters.from ?? ''}
            onChange={(event) => set({ from: event.target.value || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={filters.to ?? ''}
            onChange={(event) => set({ to: event.target.value || null })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-patient`}>Patient</Label>
          <div className="flex gap-2">
            <div className="min-w-0 flex-1">
              <PatientCombobox
                id={`${id}-patient`}
                patients={patients.data ?? []}
                loading={patients.isPending}
                value={filters.patientId}
                onChange={(patientId) => set({ patientId })}
              />
            </div>
            {filters.patientId !== null && (
              <Button variant="ghost" size="icon" onClick={() => set({ patientId: null })}>
                <FilterX aria-hidden />
                <span className="sr-only">Clear patient filter</span>
              </Button>
            )}
          </div>
        </div>
      </div>
      {hasFilters(filters) && (
        <div>
          <Button variant="outline" size="sm" onClick={() => onChange(EMPTY_FILTERS)}>
            <FilterX aria-hidden />
            Clear filters
          </Button>
        </div>
      )}
    </Card>
  );
}

/**
 * /bookings and /bookings-management: every booking, filtered (status, kit type, dates, patient)
 * and paged on the server, filters in the URL. `?booking={id}` opens that booking's detail.
 */
export default function BookingsManagementPage() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const filters = parseFilters(search);
  const openId = openBookingId(search);
  const bookings = useBookingPage(filters);
  const [bookingOpen, setBookingOpen] = useState(false);

  const go = (nextSearch: string) => navigate(`${location}${nextSearch}`, { replace: true });
  const setFilters = (next: BookingListFilters) => go(filtersSearch(next, search));
  const open = (id: number | null) => go(withOpenBooking(search, id));

  const page = bookings.data;
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / BOOKING_LIST_PAGE_SIZE));
  const first = total === 0 ? 0 : (filters.page - 1) * BOOKING_LIST_PAGE_SIZE + 1;
  const last = Math.min(total, filters.page * BOOKING_LIST_PAGE_SIZE);

  return (
    <>
      <PageHeader
        title={location.startsWith('/bookings-management') ? 'Bookings management' : 'Bookings'}
        description="Every booking: filter, open one for its history, and move it along."
        actions={
          <Button onClick={() => setBookingOpen(true)}>
            <CalendarPlus aria-hidden />
            {messages.booking.newBooking}
          </Button>
        }
      />
      <Filters filters={filters} onChange={setFilters} />
      <QueryState query={bookings}>
        {!page || page.items.length === 0 ? (
          <EmptyState
            icon={<ClipboardList className="size-6" aria-hidden />}
            title={hasFilters(filters) ? 'No bookings match these filters' : 'No bookings yet'}
          >
            {hasFilters(filters) ? 'Try another status, kit type or date range.' : undefined}
          </EmptyState>
        ) : (
          <Card className={cn('overflow-hidden', bookings.isPlaceholderData && 'opacity-70')}>
            {/* On a phone, one card per booking (like patients): every action in reach, nothing scrolls sideways. */}
            <ul
              aria-label="Bookings"
              className="divide-y divide-slate-100 md:hidden"
              data-testid="booking-cards"
            >
              {page.items.map((booking) => (
                <li
                  key={booking.id}
                  data-print-record
                  aria-current={booking.id === openId ? 'true' : undefined}
                  className={cn(
                    'grid gap-2 px-4 py-3 text-sm',
                    booking.id === openId && 'bg-accent-50 ring-2 ring-accent-600 ring-inset',
                  )}
                >
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <Link
                        href={searchResultUrl('patient', booking.patientId)}
                        className="inline-block py-0.5 font-medium wrap-anywhere text-slate-900 hover:underline"
                      >
                        {booking.patientName || messages.labels.unknownPatient}
                      </Link>
                      <span className="block text-xs text-slate-500">#{booking.id}</span>
                    </div>
                    <StatusBadge status={booking.status} />
                  </div>
                  <p className="text-slate-700">
                    {booking.testType} · {booking.kitType} · {booking.kitLabel || messages.labels.unknownKit}
                  </p>
                  <dl className="grid grid-cols-2 gap-2 text-slate-700">
                    <div>
                      <dt className="text-xs text-slate-500">Start</dt>
                      <dd>{formatDate(booking.startDate)}</dd>
                    </div>
                    <div>
                      <dt className="text-xs text-slate-500">Return</dt>
                      <dd>{formatReturnDate(booking.returnDate)}</dd>
                    </div>
                  </dl>
                  <div className="flex items-center justify-between gap-3">
                    <AgreementBadge status={booking.agreementStatus} />
                    <Button variant="outline" onClick={() => open(booking.id)}>
                      Open<span className="sr-only"> booking #{booking.id}</span>
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
            {/* Positioned, so the screen-reader-only text inside scrolls with the table and cannot widen the page. */}
            <div className="relative hidden overflow-x-auto md:block">
              <table className="w-full min-w-[48rem] text-left text-sm">
                <caption className="sr-only">Bookings</caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Patient
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Test and kit
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Start
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Return
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      Agreement
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {page.items.map((booking) => (
                    <tr
                      key={booking.id}
                      id={`booking-${booking.id}`}
                      aria-current={booking.id === openId ? 'true' : undefined}
                      className={cn(
                        'hover:bg-slate-50',
                        booking.id === openId && 'bg-accent-50 ring-2 ring-accent-600 ring-inset',
                      )}
                    >
                      <td className="px-4 py-3">
                        <Link
                          href={searchResultUrl('patient', booking.patientId)}
                          className="font-medium text-slate-900 hover:underline"
                        >
                          {booking.patientName || messages.labels.unknownPatient}
                        </Link>
                        <span className="block text-xs text-slate-500">#{booking.id}</span>
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
                      <td className="px-4 py-3">
                        <AgreementBadge status={booking.agreementStatus} />
                      </td>
                      <td className="px-4 py-3 text-right">
                        <Button variant="outline" size="sm" onClick={() => open(booking.id)}>
                          Open<span className="sr-only"> booking #{booking.id}</span>
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav
              aria-label="Pages"
              className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm text-slate-600"
            >
              <span aria-live="polite">
                {first}–{last} of {total}
              </span>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={filters.page <= 1}
                  onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
                >
                  <ChevronLeft aria-hidden />
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={filters.page >= pages}
                  onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
                >
                  Next
                  <ChevronRight aria-hidden />
                </Button>
              </div>
            </nav>
          </Card>
        )}
      </QueryState>
      <BookingDetailSheet bookingId={openId} onClose={() => open(null)} />
      <BookingDialog open={bookingOpen} onOpenChange={setBookingOpen} />
    </>
  );
}
