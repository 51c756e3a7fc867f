import { useDraggable } from '@dnd-kit/core';
import { formatDate, formatReturnDate, messages, searchResultUrl } from '@wellrest/core';
import { CalendarDays, GripVertical } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';
import type { BookingRow } from '../bookings/queries';
import { StatusBadge } from '../bookings/StatusBadge';

/** 'Nov 23', with the year only when it is not the current one: cards are narrow. */
function shortDate(date: string, currentYear: string): string {
  const full = formatDate(date);
  return full.endsWith(`, ${currentYear}`) ? full.slice(0, -`, ${currentYear}`.length) : full;
}

/** What a card shows of its booking; `handle` is the drag handle, when the user may move it. */
function CardBody({
  booking,
  year,
  handle,
  className,
}: {
  booking: BookingRow;
  year: string;
  handle?: React.ReactNode;
  className?: string;
}) {
  const patient = booking.patientName || messages.labels.unknownPatient;
  return (
    <div
      className={cn(
        'relative rounded-lg border border-slate-200 bg-white p-2.5 shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-accent-600 hover:border-slate-300 hover:shadow',
        className,
      )}
    >
      {handle}
      <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-1">
        {/* The link covers the card: a click or Enter anywhere opens the booking. */}
        <Link
          href={searchResultUrl('booking', booking.id)}
          title={patient}
          className="line-clamp-2 min-h-6 pr-6 text-sm font-medium break-words text-slate-900 outline-none after:absolute after:inset-0 after:rounded-lg after:content-['']"
        >
          {patient}
        </Link>
        <p className="truncate text-xs text-slate-600">
          {booking.kitType} · {booking.kitLabel || messages.labels.unknownKit}
        </p>
        <p className="flex min-w-0 items-center gap-1 text-xs text-slate-600">
          <CalendarDays className="size-3.5 shrink-0 text-slate-400" aria-hidden />
          <span className="truncate">
            <span className="sr-only">Start to return: </span>
            {shortDate(booking.startDate, year)} –{' '}
            {booking.returnDate ? shortDate(booking.returnDate, year) : formatReturnDate(null)}
          </span>
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-1.5">
          <StatusBadge status={booking.status} />
          <span className="text-xs text-slate-600">{booking.testType} test</span>
        </div>
      </div>
    </div>
  );
}

/** A booking on the board; with `movable` it has a handle to drag it by mouse, touch or keyboard. */
export function KanbanCard({
  booking,
  year,
  movable,
}: {
  booking: BookingRow;
  year: string;
  movable: boolean;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: booking.id,
    data: { booking },
    disabled: !movable,
  });
  const patient = booking.patientName || messages.labels.unknownPatient;
  const handle = movable ? (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={messages.kanban.dragHandle(patient)}
      className="absolute top-1.5 right-1.5 z-10 flex size-7 cursor-grab touch-none items-center justify-center rounded text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-accent-600 active:cursor-grabbing"
    >
      <GripVertical className="size-4" aria-hidden />
    </button>
  ) : undefined;
  return (
    <li ref={setNodeRef} data-booking-id={booking.id} className={cn('min-w-0', isDragging && 'opacity-40')}>
      <CardBody booking={booking} year={year} handle={handle} />
    </li>
  );
}

/** The card that follows the pointer while a booking is dragged. */
export function KanbanCardOverlay({ booking, year }: { booking: BookingRow; year: string }) {
  return (
    <CardBody
      booking={booking}
      year={year}
      className="cursor-grabbing shadow-lg ring-2 ring-accent-600"
      handle={
        <span className="absolute top-1.5 right-1.5 flex size-7 items-center justify-center text-slate-500">
          <GripVertical className="size-4" aria-hidden />
        </span>
      }
    />
  );
}
