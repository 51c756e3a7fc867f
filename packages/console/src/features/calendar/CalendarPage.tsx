import { formatDate, KIT_TYPES, type KitType, messages } from '@wellrest/core';
import { ArrowDownLeft, ArrowUpRight, CalendarPlus, ChevronLeft, ChevronRight, Moon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { ErrorState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { BookingDetailSheet } from '@/features/bookings/BookingDetailSheet';
import { BookingDialog } from '@/features/bookings/BookingDialog';
import { type BookingRow, practiceToday, useBookings, useKits } from '@/features/bookings/queries';
import { cn } from '@/lib/utils';
import {
  availableUnitsByDay,
  type CalendarEvent,
  type CalendarEventKind,
  type CalendarView,
  daysBetween,
  eventsByDay,
  isStartableDay,
  KIT_TYPE_STYLES,
  shiftAnchor,
  visibleRange,
} from './calendarModel';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Events a month cell lists before '+N more'. */
const MONTH_CELL_EVENTS = 3;

const KIND: Record<CalendarEventKind, { label: string; Icon: typeof Moon }> = {
  pickup: { label: 'Pickup', Icon: ArrowUpRight },
  night: { label: 'Test night', Icon: Moon },
  return: { label: 'Return', Icon: ArrowDownLeft },
};

function title(view: CalendarView, anchor: string, range: { from: string; to: string }): string {
  if (view === 'month') return `${MONTHS[Number(anchor.slice(5, 7)) - 1]} ${anchor.slice(0, 4)}`;
  return `${formatDate(range.from)} – ${formatDate(range.to)}`;
}

function EventButton({
  event,
  compact,
  onOpen,
}: {
  event: CalendarEvent<BookingRow>;
  compact: boolean;
  onOpen: (id: number) => void;
}) {
  const { booking } = event;
  const { label, Icon } = KIND[event.kind];
  const name = booking.patientName || messages.labels.unknownPatient;
  return (
    <button
      type="button"
      onClick={() => onOpen(booking.id)}
      data-event={event.kind}
      data-booking={booking.id}
      className={cn(
        // At least 24 px tall (WCAG 2.5.8), in the month view on a phone too.
        'flex min-h-6 w-full min-w-0 items-center gap-1 rounded border-l-4 px-1.5 text-left hover:brightness-95 focus-visible:outline-2 focus-visible:outline-accent-600',
        KIT_TYPE_STYLES[booking.kitType].chip,
        compact ? 'py-0.5 text-[11px]' : 'py-1 text-xs',
        event.kind === 'night' && 'border-dashed bg-white',
      )}
    >
      <Icon className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">
        {label}, {booking.kitType}:{' '}
      </span>
      <span className="truncate">{name}</span>
      {!compact && <span className="ml-auto shrink-0 text-[10px]">{booking.kitLabel}</span>}
    </button>
  );
}

function Availability({
  counts,
  compact,
}: {
  counts: Record<KitType, number> | undefined;
  compact: boolean;
}) {
  return (
    <ul
      className={cn(
        'flex w-fit flex-wrap gap-x-2 gap-y-0.5 rounded bg-white px-0.5',
        compact ? 'text-[10px]' : 'text-xs',
      )}
    >
      {KIT_TYPES.map((type) => (
        <li key={type} className="flex items-center gap-1 text-slate-700" title={`${type}: available units`}>
          <span className={cn('size-2 rounded-full', KIT_TYPE_STYLES[type].dot)} aria-hidden />
          <span className="sr-only">{type} available:</span>
          <span aria-hidden>{KIT_TYPE_STYLES[type].short}</span>
          <span className="font-semibold tabular-nums">{counts?.[type] ?? 0}</span>
        </li>
      ))}
    </ul>
  );
}

function DayCell({
  date,
  view,
  inMonth,
  today,
  events,
  counts,
  onBook,
  onOpen,
  onMore,
}: {
  date: string;
  view: CalendarView;
  inMonth: boolean;
  today: string;
  events: CalendarEvent<BookingRow>[];
  counts: Record<KitType, number> | undefined;
  onBook: (date: string) => void;
  onOpen: (id: number) => void;
  onMore: (date: string) => void;
}) {
  const compact = view === 'month';
  const startable = isStartableDay(date, today);
  const shown = compact ? events.filter((e) => e.kind !== 'night').slice(0, MONTH_CELL_EVENTS) : events;
  const hidden = events.length - shown.length;
  const day = Number(date.slice(8, 10));
  return (
    <div
      data-date={date}
      className={cn(
        'flex min-w-0 flex-col gap-1 border-slate-200 p-1.5',
        compact ? 'min-h-28' : 'min-h-24 sm:min-h-72',
        !inMonth && 'bg-slate-50/80',
        !startable &&
          'bg-[repeating-linear-gradient(135deg,transparent,transparent_6px,var(--color-slate-100)_6px,var(--color-slate-100)_12px)]',
      )}
    >
      <button
        type="button"
        disabled={!startable}
        onClick={() => onBook(date)}
        aria-label={`${formatDate(date)}: ${startable ? 'book a test starting this day' : 'no test can start this day'}`}
        className={cn(
          'flex items-center justify-between gap-1 rounded px-1 py-0.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-accent-600',
          // On the striped "no starts" background the day's text sits on solid white, so its
          // contrast does not depend on which stripe is behind it.
          startable ? 'hover:bg-accent-50' : 'cursor-not-allowed bg-white',
        )}
      >
        <span
          className={cn(
            'inline-flex size-6 items-center justify-center rounded-full font-medium tabular-nums',
            date === today ? 'bg-accent-700 text-white' : inMonth ? 'text-slate-900' : 'text-slate-600',
          )}
        >
          {compact ? day : `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${day}`}
        </span>
        {startable ? (
          <CalendarPlus className="size-3.5 text-accent-700" aria-hidden />
        ) : (
          <span className="text-[10px] text-slate-600">No starts</span>
        )}
      </button>
      <Availability counts={counts} compact={compact} />
      <ul className="grid min-w-0 gap-0.5" aria-label={`Bookings on ${formatDate(date)}`}>
        {shown.map((event) => (
          <li key={`${event.kind}-${event.booking.id}`} className="min-w-0">
            <EventButton event={event} compact={compact} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      {hidden > 0 && (
        <button
          type="button"
          onClick={() => onMore(date)}
          className="inline-flex min-h-6 min-w-6 items-center self-start rounded bg-white px-1 text-[11px] font-medium text-accent-700 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          +{hidden} more<span className="sr-only"> on {formatDate(date)}, show the week</span>
        </button>
      )}
    </div>
  );
}

/**
 * /calendar: pickups, test nights and returns per kit type by month or week, with each day's
 * free units per kit type. A day opens the booking dialog with that start date; an event opens
 * its booking.
 */
export default function CalendarPage() {
  const today = practiceToday();
  const [view, setView] = useState<CalendarView>('month');
  const [anchor, setAnchor] = useState(today);
  const [bookOn, setBookOn] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const range = visibleRange(view, anchor);
  const kits = useKits();
  const bookings = useBookings({ from: range.from, to: range.to, keepPrevious: true });

  const days = useMemo(() => daysBetween(range.from, range.to), [range.from, range.to]);
  const events = useMemo(
    () => eventsByDay(bookings.data ?? [], range.from, range.to),
    [bookings.data, range.from, range.to],
  );
  const units = useMemo(
    () => availableUnitsByDay(kits.data ?? [], bookings.data ?? [], range.from, range.to, today),
    [kits.data, bookings.data, range.from, range.to, today],
  );
  const failed = [kits, bookings].find((query) => query.isError);
  const month = anchor.slice(0, 7);

  return (
    <>
      <PageHeader
        title="Calendar"
        description="Pickups, test nights and returns by kit type, with the units free each day."
        actions={
          <Button onClick={() => setBookOn('')}>
            <CalendarPlus aria-hidden />
            {messages.booking.newBooking}
          </Button>
        }
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="outline" size="icon-sm" onClick={() => setAnchor(shiftAnchor(view, anchor, -1))}>
            <ChevronLeft aria-hidden />
            <span className="sr-only">Previous {view}</span>
          </Button>
          <Button variant="outline" size="sm" onClick={() => setAnchor(today)}>
            Today
          </Button>
          <Button variant="outline" size="icon-sm" onClick={() => setAnchor(shiftAnchor(view, anchor, 1))}>
            <ChevronRight aria-hidden />
            <span className="sr-only">Next {view}</span>
          </Button>
          <h2 className="ml-2 text-lg font-semibold text-slate-900" aria-live="polite">
            {title(view, anchor, range)}
          </h2>
        </div>
        <fieldset className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 shadow-sm">
          <legend className="sr-only">View</legend>
          {(['month', 'week'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={view === option}
              onClick={() => setView(option)}
              className={cn(
                'rounded px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-accent-600',
                view === option ? 'bg-accent-700 text-white' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {option === 'month' ? 'Month' : 'Week'}
            </button>
          ))}
        </fieldset>
      </div>
      <ul className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Legend">
        {KIT_TYPES.map((type) => (
          <li key={type} className="flex items-center gap-1.5">
            <span className={cn('size-2.5 rounded-full', KIT_TYPE_STYLES[type].dot)} aria-hidden />
            {type} ({KIT_TYPE_STYLES[type].short})
          </li>
        ))}
        {(Object.keys(KIND) as CalendarEventKind[]).map((kind) => {
          const { label, Icon } = KIND[kind];
          return (
            <li key={kind} className="flex items-center gap-1.5">
              <Icon className="size-3.5" aria-hidden />
              {label}
            </li>
          );
        })}
      </ul>
      {failed ? (
        <ErrorState error={failed.error} onRetry={() => void failed.refetch()} />
      ) : kits.isPending || bookings.isPending ? (
        <PageSpinner label={messages.common.loading} />
      ) : (
        <Card className="relative overflow-x-auto">
          <div className={cn(view === 'month' && 'min-w-[44rem]', bookings.isFetching && 'opacity-80')}>
            <div
              className={cn(
                'grid-cols-7 border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-600 uppercase',
                view === 'month' ? 'grid' : 'hidden sm:grid',
              )}
            >
              {WEEKDAYS.map((name) => (
                <div key={name} className="px-2 py-2">
                  {name}
                </div>
              ))}
            </div>
            <div
              className={cn(
                'grid',
                view === 'month'
                  ? 'grid-cols-7 divide-x divide-slate-200 [&>*:nth-child(n+8)]:border-t'
                  : 'grid-cols-1 divide-y divide-slate-200 sm:grid-cols-7 sm:divide-x sm:divide-y-0',
              )}
              data-view={view}
            >
              {days.map((date) => (
                <DayCell
                  key={date}
                  date={date}
                  view={view}
                  inMonth={view === 'week' || date.slice(0, 7) === month}
                  today={today}
                  events={events.get(date) ?? []}
                  counts={units.get(date)}
                  onBook={setBookOn}
                  onOpen={setOpenId}
                  onMore={(day) => {
                    setAnchor(day);
                    setView('week');
                  }}
                />
              ))}
            </div>
          </div>
        </Card>
      )}
      <BookingDialog
        open={bookOn !== null}
        onOpenChange={(open) => !open && setBookOn(null)}
        preselectedDate={bookOn || undefined}
      />
      <BookingDetailSheet bookingId={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
