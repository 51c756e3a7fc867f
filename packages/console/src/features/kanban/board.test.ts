import { messages, operationMessages } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import type { BookingRow } from '../bookings/queries';
import { type KanbanBoard, moveOnBoard, moveRefusal } from './board';

function booking(id: number, status: BookingRow['status']): BookingRow {
  return {
    id,
    patientId: 1,
    patientName: `Patient ${id}`,
    kitId: 1,
    kitLabel: 'SF-001',
    kitType: 'Somfit',
    testType: '2-day',
    status,
    startDate: '2025-03-05',
    endDate: '2025-03-06',
    returnDate: '2025-03-07',
    notes: '',
  } as BookingRow;
}

const empty = { items: [], total: 0 };

describe('kanban moves', () => {
  it('allows the transitions of the booking lifecycle and nothing else', () => {
    expect(moveRefusal('pending', 'confirmed')).toBeNull();
    expect(moveRefusal('pending', 'cancelled')).toBeNull();
    expect(moveRefusal('confirmed', 'picked_up')).toBeNull();
    expect(moveRefusal('picked_up', 'completed')).toBeNull();
    expect(moveRefusal('pending', 'pending')).toBeNull();
    expect(moveRefusal('pending', 'completed')).toBe(
      `${operationMessages.invalidStatusChange('pending', 'completed')} ${messages.kanban.allowedMoves('pending', ['confirmed', 'cancelled'])}`,
    );
    expect(moveRefusal('cancelled', 'pending')).toContain(messages.kanban.finalStatus('cancelled'));
    expect(moveRefusal('picked_up', 'confirmed')).toContain(
      messages.kanban.allowedMoves('picked up', ['completed']),
    );
  });

  it('moves a card to the top of its new column and keeps the counts', () => {
    const board: KanbanBoard = {
      pending: { items: [booking(1, 'pending'), booking(2, 'pending')], total: 5 },
      confirmed: { items: [booking(3, 'confirmed')], total: 1 },
      picked_up: empty,
      completed: empty,
      cancelled: empty,
    };
    const moved = moveOnBoard(board, 2, 'confirmed');
    expect(moved.pending).toEqual({ items: [booking(1, 'pending')], total: 4 });
    expect(moved.confirmed.items.map((b) => [b.id, b.status])).toEqual([
      [2, 'confirmed'],
      [3, 'confirmed'],
    ]);
    expect(moved.confirmed.total).toBe(2);
    expect(moveOnBoard(board, 99, 'confirmed')).toBe(board);
  });
});
