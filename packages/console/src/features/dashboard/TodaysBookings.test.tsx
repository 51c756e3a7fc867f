import { fireEvent, render, screen } from '@testing-library/react';
import { messages } from '@wellrest/core';
import { expect, it } from 'vitest';
import type { BookingRow } from '../bookings/queries';
import { TODAYS_BOOKINGS_SHOWN, TodaysBookings } from './TodaysBookings';

const booking = (id: number): BookingRow =>
  ({
    id,
    patientId: id,
    patientName: `Patient ${id}`,
    kitId: id,
    kitLabel: `SOM-${id}`,
    kitType: 'Somfit',
    testType: '2-day',
    status: 'confirmed',
    startDate: '2026-11-23',
    endDate: '2026-11-24',
    returnDate: '2026-11-25',
  }) as BookingRow;

it("shows a busy day's first bookings and the rest on request", () => {
  const bookings = Array.from({ length: TODAYS_BOOKINGS_SHOWN + 7 }, (_, i) => booking(i + 1));
  const { container } = render(
    <TodaysBookings bookings={bookings} onRefresh={() => undefined} onChangeDuration={() => undefined} />,
  );
  expect(container.querySelectorAll('li[data-booking-id]')).toHaveLength(TODAYS_BOOKINGS_SHOWN);
  fireEvent.click(screen.getByRole('button', { name: messages.dashboard.showAllToday(bookings.length) }));
  expect(container.querySelectorAll('li[data-booking-id]')).toHaveLength(bookings.length);
  expect(screen.queryByRole('button', { name: messages.dashboard.showAllToday(bookings.length) })).toBeNull();
});

it('offers no "Show all" when every booking is shown', () => {
  const bookings = [booking(1), booking(2)];
  const { container } = render(
    <TodaysBookings bookings={bookings} onRefresh={() => undefined} onChangeDuration={() => undefined} />,
  );
  expect(container.querySelectorAll('li[data-booking-id]')).toHaveLength(2);
  expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
});
