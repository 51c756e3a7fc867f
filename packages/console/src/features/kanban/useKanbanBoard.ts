import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, addDays, type BookingStatus, messages, type Page } from '@wellrest/core';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage, getQueryFn } from '@/lib/api';
import { BOOKING_DATA_KEYS, BOOKINGS_KEY, type BookingRow } from '../bookings/queries';
import { statusLabel } from '../bookings/StatusBadge';
import { FINAL_STATUSES, KANBAN_COLUMNS, type KanbanBoard, moveOnBoard, RECENT_DAYS } from './board';

/** Cards loaded per column; the column title still counts every booking in it. */
const COLUMN_PAGE_SIZE = 100;

const fetchPath = getQueryFn<Page<BookingRow>>({ on401: 'throw' });

/** The list call of one column: active statuses in full, finished ones from the recent window. */
export function columnPath(status: BookingStatus, today: string): string {
  const params = new URLSearchParams({ status, page: '1', pageSize: String(COLUMN_PAGE_SIZE) });
  if (FINAL_STATUSES.includes(status)) {
    params.set('from', addDays(today, -RECENT_DAYS));
    params.set('sort', '-startDate');
  }
  return `${API_PATHS.bookings}?${params}`;
}

/** The board's query key: under the bookings key, so every booking change refreshes it. */
export function boardKey(today: string) {
  return [...BOOKINGS_KEY, 'kanban', { today }] as const;
}

export function useKanbanBoard(today: string, enabled = true) {
  return useQuery<KanbanBoard>({
    queryKey: boardKey(today),
    enabled,
    queryFn: async (context) => {
      const pages = await Promise.all(
        KANBAN_COLUMNS.map((status) => fetchPath({ ...context, queryKey: [columnPath(status, today)] })),
      );
      const board = {} as KanbanBoard;
      KANBAN_COLUMNS.forEach((status, index) => {
        const page = pages[index];
        board[status] = { items: page?.items ?? [], total: page?.total ?? 0 };
      });
      return board;
    },
  });
}

export interface MoveInput {
  booking: BookingRow;
  to: BookingStatus;
  reason?: string;
}

/**
 * Changes a booking's status through the API. The card moves at once; if the server refuses, it
 * goes back and the server's reason is shown.
 */
export function useMoveBooking(today: string) {
  const queryClient = useQueryClient();
  const key = boardKey(today);
  return useMutation({
    mutationFn: ({ booking, to, reason }: MoveInput) =>
      apiRequest<BookingRow>('POST', `${API_PATHS.bookings}/${booking.id}/status`, { status: to, reason }),
    // A refused change would be refused again; a status change is never repeated on its own.
    retry: false,
    onMutate: async ({ booking, to }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<KanbanBoard>(key);
      if (previous) queryClient.setQueryData<KanbanBoard>(key, moveOnBoard(previous, booking.id, to));
      return { previous };
    },
    onError: (error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast({
        variant: 'destructive',
        title: messages.kanban.moveFailedTitle,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
    onSuccess: (_booking, { to }) => {
      toast({ variant: 'success', title: messages.kanban.moved(statusLabel(to)) });
    },
    onSettled: () =>
      Promise.all(BOOKING_DATA_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
