import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { type BookingStatus, defineAbilityFor, messages } from '@wellrest/core';
import { Info, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { CancelBookingDialog } from '../bookings/CancelBookingDialog';
import { type BookingRow, practiceToday } from '../bookings/queries';
import { statusLabel } from '../bookings/StatusBadge';
import { isKanbanColumn, KANBAN_COLUMNS, moveRefusal } from './board';
import { KanbanCardOverlay } from './KanbanCard';
import { KanbanColumn } from './KanbanColumn';
import { useKanbanBoard, useMoveBooking } from './useKanbanBoard';

function bookingOf(data: unknown): BookingRow | undefined {
  return (data as { booking?: BookingRow } | undefined)?.booking;
}

function patientOf(data: unknown): string {
  return bookingOf(data)?.patientName || messages.labels.unknownPatient;
}

function columnName(id: UniqueIdentifier | undefined): string {
  return isKanbanColumn(id) ? statusLabel(id) : '';
}

/**
 * Left and right arrows move a lifted card to the next column (up and down do nothing: a column
 * has no order to choose). The card is placed at the top of the column, where the drop lands.
 */
const columnCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (step === 0) return undefined;
  event.preventDefault();
  const { over, active, collisionRect, droppableRects } = context;
  const current = isKanbanColumn(over?.id) ? over.id : bookingOf(active?.data.current)?.status;
  const index = KANBAN_COLUMNS.indexOf(current as (typeof KANBAN_COLUMNS)[number]);
  const next = KANBAN_COLUMNS[Math.min(KANBAN_COLUMNS.length - 1, Math.max(0, index + step))];
  const rect = next ? droppableRects.get(next) : undefined;
  if (!rect || !collisionRect || next === current) return undefined;
  return { x: rect.left + Math.max(0, (rect.width - collisionRect.width) / 2), y: rect.top + 44 };
};

/** The pointer decides where a dragged card is; the keyboard (no pointer) uses the card's place. */
const collisionDetection: CollisionDetection = (args) => {
  if (args.pointerCoordinates) {
    const within = pointerWithin(args);
    if (within.length > 0) return within;
  }
  return rectIntersection(args);
};

const announcements: Announcements = {
  onDragStart: ({ active }) =>
    messages.kanban.pickedUp(
      patientOf(active.data.current),
      columnName(bookingOf(active.data.current)?.status),
    ),
  onDragOver: ({ active, over }) =>
    over ? messages.kanban.over(patientOf(active.data.current), columnName(over.id)) : undefined,
  onDragEnd: ({ active, over }) =>
    over
      ? messages.kanban.dropped(patientOf(active.data.current), columnName(over.id))
      : messages.kanban.dropCancelled(patientOf(active.data.current)),
  onDragCancel: ({ active }) => messages.kanban.dropCancelled(patientOf(active.data.current)),
};

/** /scheduler/kanban-dashboard: bookings in columns by status; moving a card changes its status. */
export default function KanbanPage() {
  const { user } = useCurrentUser();
  const ability = useMemo(
    () => defineAbilityFor(user ? { id: user.id, role: user.role, physicianId: user.physicianId } : null),
    [user],
  );
  const canRead = ability.can('read', 'Booking');
  const canMove = ability.can('update', 'Booking');
  const today = practiceToday();
  const board = useKanbanBoard(today, canRead);
  const move = useMoveBooking(today);
  const [dragged, setDragged] = useState<BookingRow | null>(null);
  const [cancelling, setCancelling] = useState<BookingRow | null>(null);

  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );

  function onDragStart(event: DragStartEvent) {
    setDragged(bookingOf(event.active.data.current) ?? null);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(null);
    const booking = bookingOf(active.data.current);
    const to = over?.id;
    if (!booking || !isKanbanColumn(to) || booking.status === to) return;
    const refusal = moveRefusal(booking.status as BookingStatus, to);
    if (refusal) {
      toast({ variant: 'destructive', title: messages.kanban.moveRefusedTitle, description: refusal });
      return;
    }
    if (to === 'cancelled') {
      setCancelling(booking);
      return;
    }
    move.mutate({ booking, to });
  }

  const header = (
    <PageHeader
      title="Kanban Dashboard"
      description="Bookings by status. Drag a card to the next column to move the booking on."
    />
  );

  if (!canRead) {
    return (
      <>
        {header}
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertTitle>{messages.common.forbiddenPage}</AlertTitle>
        </Alert>
      </>
    );
  }

  return (
    <>
      {header}
      {!canMove && (
        <Alert className="mb-4">
          <Info aria-hidden />
          <AlertTitle>View only</AlertTitle>
          <AlertDescription>
            You can see the board, but moving bookings needs permission to change them.
          </AlertDescription>
        </Alert>
      )}
      <QueryState query={board}>
        {board.data && (
          <DndContext
            sensors={sensors}
            collisionDetection={collisionDetection}
            onDragStart={onDragStart}
            onDragEnd={onDragEnd}
            onDragCancel={() => setDragged(null)}
            accessibility={{
              announcements,
              screenReaderInstructions: { draggable: messages.kanban.instructions },
            }}
          >
            <div className="-mx-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:px-0">
              <div className="grid snap-x snap-mandatory auto-cols-[minmax(15rem,1fr)] grid-flow-col gap-3 xl:auto-cols-[minmax(11rem,1fr)]">
                {KANBAN_COLUMNS.map((status) => (
                  <KanbanColumn
                    key={status}
                    status={status}
                    column={board.data[status]}
                    year={today.slice(0, 4)}
                    movable={canMove}
                  />
                ))}
              </div>
            </div>
            <DragOverlay dropAnimation={null}>
              {dragged ? <KanbanCardOverlay booking={dragged} year={today.slice(0, 4)} /> : null}
            </DragOverlay>
          </DndContext>
        )}
      </QueryState>
      <CancelBookingDialog
        open={cancelling !== null}
        patientName={cancelling?.patientName || messages.labels.unknownPatient}
        pending={false}
        onClose={() => setCancelling(null)}
        onConfirm={(reason) => {
          if (cancelling) move.mutate({ booking: cancelling, to: 'cancelled', reason });
          setCancelling(null);
        }}
      />
    </>
  );
}
