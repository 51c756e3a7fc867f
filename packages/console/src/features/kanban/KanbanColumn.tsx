import { useDroppable } from '@dnd-kit/core';
import { type BookingStatus, messages } from '@wellrest/core';
import { cn } from '@/lib/utils';
import type { BookingRow } from '../bookings/queries';
import { statusLabel } from '../bookings/StatusBadge';
import { FINAL_STATUSES, type KanbanColumnData, moveRefusal, RECENT_DAYS } from './board';
import { KanbanCard } from './KanbanCard';

const ACCENTS: Readonly<Record<BookingStatus, string>> = {
  pending: 'bg-yellow-400',
  confirmed: 'bg-green-500',
  picked_up: 'bg-purple-500',
  completed: 'bg-blue-500',
  cancelled: 'bg-red-500',
};

/** What an active column holds; finished columns show their recent window instead. */
const CAPTIONS: Readonly<Partial<Record<BookingStatus, string>>> = {
  pending: 'Awaiting confirmation',
  confirmed: 'Ready for pickup',
  picked_up: 'Out with patients',
};

/** One status column: a drop target that shows, while a card is over it, whether it may go there. */
export function KanbanColumn({
  status,
  column,
  year,
  movable,
}: {
  status: BookingStatus;
  column: KanbanColumnData;
  /** The current year, left out of the cards' dates. */
  year: string;
  movable: boolean;
}) {
  const { setNodeRef, isOver, active } = useDroppable({ id: status });
  const dragged = active?.data.current?.booking as BookingRow | undefined;
  const refused = isOver && dragged !== undefined && moveRefusal(dragged.status, status) !== null;
  const titleId = `kanban-column-${status}`;
  const hidden = column.total - column.items.length;
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={titleId}
      data-column={status}
      className={cn(
        'flex min-h-48 min-w-0 snap-start flex-col rounded-xl border border-slate-200 bg-slate-100/70 transition-colors',
        isOver && !refused && 'border-accent-600 bg-accent-50 ring-2 ring-accent-600/40',
        refused && 'border-red-400 bg-red-50',
      )}
    >
      <header className="grid gap-0.5 px-3 pt-3 pb-2">
        <h2
          id={titleId}
          aria-label={`${statusLabel(status)}, ${column.total} ${column.total === 1 ? 'booking' : 'bookings'}`}
          className="flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-900"
        >
          <span className={cn('size-2 shrink-0 rounded-full', ACCENTS[status])} aria-hidden />
          <span className="truncate">{statusLabel(status)}</span>
          <span className="rounded-full bg-white px-2 py-0.5 text-xs font-medium text-slate-700 tabular-nums shadow-sm">
            {column.total}
          </span>
        </h2>
        <p className="truncate pl-4 text-xs text-slate-600">
          {FINAL_STATUSES.includes(status) ? messages.kanban.recentWindow(RECENT_DAYS) : CAPTIONS[status]}
        </p>
      </header>
      {column.items.length === 0 ? (
        <p className="mx-3 mb-3 flex flex-1 items-center justify-center rounded-lg border border-dashed border-slate-300 px-3 py-6 text-center text-xs text-slate-600">
          No bookings
        </p>
      ) : (
        <ul
          aria-labelledby={titleId}
          className="grid grid-cols-[minmax(0,1fr)] content-start gap-2 px-3 pb-3 lg:max-h-[calc(100dvh-16rem)] lg:overflow-y-auto"
        >
          {column.items.map((booking) => (
            <KanbanCard key={booking.id} booking={booking} year={year} movable={movable} />
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <p className="px-3 pb-3 text-xs text-slate-600">
          Showing {column.items.length} of {column.total}
        </p>
      )}
    </section>
  );
}
