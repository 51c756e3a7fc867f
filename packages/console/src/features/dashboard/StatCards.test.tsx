import { render, screen } from '@testing-library/react';
import { frontDeskMessages } from '@wellrest/core';
import { expect, it } from 'vitest';
import { StatCards } from './StatCards';

it('renders the numbers the server sent and leaves the others out', () => {
  render(
    <StatCards
      stats={{ activeBookings: 12, availableKits: 4, kitsInUse: 3, kitsOnShelf: 5, totalKits: 7 }}
    />,
  );
  expect(screen.getByText('Active Bookings').parentElement?.textContent).toContain('12');
  expect(screen.getByText(frontDeskMessages.kitsFreeTodayTitle).parentElement?.textContent).toContain('4');
  expect(screen.getByText(frontDeskMessages.kitsSummary(5, 3, 7))).toBeTruthy();
  expect(screen.queryByText('Total Patients')).toBeNull();
});

it('shows every card in its loading state while loading', () => {
  const { container } = render(<StatCards stats={undefined} loading />);
  expect(container.querySelectorAll('[aria-busy="true"]')).toHaveLength(4);
  expect(container.querySelectorAll('[data-color]')[3]?.getAttribute('data-color')).toBe('amber');
});
