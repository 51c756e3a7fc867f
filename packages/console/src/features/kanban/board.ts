import {
  BOOKING_STATUS_TRANSITIONS,
  type BookingStatus,
  canTransitionBooking,
  messages,
  operationMessages,
} from '@wellrest/core';
import type { BookingRow } from '../bookings/queries';
import { statusLabel } from '../bookings/StatusBadge';

/** The board's columns, left to right: the order a booking moves through. */
export const KANBAN_COLUMNS = ['pending', 'confirmed', 'picked_up', 'completed', 'cancelled'] as const;

/** Finished bookings are shown only when their test reached this many recent days, to keep the board short. */
export const RECENT_DAYS = 7;
export const FINAL_STATUSES: readonly BookingStatus[] = ['completed', 'cancelled'];

/** One column's cards (the first page of them) and how many bookings it holds in all. */
export interface KanbanColumnData {
  items: BookingRow[];
  total: number;
}
export type KanbanBoard = Record<BookingStatus, KanbanColumnData>;

export function isKanbanColumn(value: unknown): value is BookingStatus {
  return typeof value === 'string' && (KANBAN_COLUMNS as readonly string[]).includes(value);
}

const lower = (status: string): string => statusLabel(status).toLowerCase();

/**
 * Why a card may not move from one column to another, or null when the move is a legal status
 * change (DESIGN.md §2). The first sentence is the one the server answers with.
 */
export function moveRefusal(from: BookingStatus, to: BookingStatus): string | null {
  if (from === to || canTransitionBooking(from, to)) return null;
  const allowed = BOOKING_STATUS_TRANSITIONS[from];
  const hint =
    allowed.length === 0
      ? messages.kanban.finalStatus(lower(from))
      : messages.kanban.allowedMoves(lower(from), allowed.map(lower));
  return `${operationMessages.invalidStatusChange(from, to)} ${hint}`;
}

/** The board after a booking moved: out of its column, first in the new one, with its new status. */
export function moveOnBoard(board: KanbanBoard, bookingId: number, to: BookingStatus): KanbanBoard {
  const from = KANBAN_COLUMNS.find((status) => board[status].items.some((b) => b.id === bookingId));
  if (from === undefined || from === to) return board;
  const booking = board[from].items.find((b) => b.id === bookingId) as BookingRow;
  return {
    ...board,
    [from]: { items: board[from].items.filter((b) => b.id !== bookingId), total: board[from].total - 1 },
    [to]: { items: [{ ...booking, status: to }, ...board[to].items], total: board[to].total + 1 },
  };
}
