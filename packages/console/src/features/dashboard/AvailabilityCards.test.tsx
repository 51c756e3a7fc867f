import { act, fireEvent, screen, within } from '@testing-library/react';
import { type AvailabilityDay, messages, type Pickup } from '@wellrest/core';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render';
import { AvailabilityCards } from './AvailabilityCards';

const pickup = (id: number, status: Pickup['status'] = 'confirmed'): Pickup => ({
  id,
  patientId: 100 + id,
  patientName: `Patient ${id}`,
  testType: '2-day',
  kitType: 'Somfit',
  kitId: `SOM-00${id}`,
  status,
});
const dropoff = (id: number) => ({
  id,
  patientId: 200 + id,
  patientName: `Returning ${id}`,
  kitType: 'SleepView' as const,
  kitId: `SV-00${id}`,
});

const days: AvailabilityDay[] = [
  {
    date: '2025-11-24',
    label: 'Today',
    availableUnits: 7,
    pickups: [pickup(1), pickup(2, 'pending'), pickup(3), pickup(4), pickup(5)],
    dropoffs: [dropoff(1), dropoff(2), dropoff(3)],
  },
  { date: '2025-11-25', label: 'Tomorrow', availableUnits: 1, pickups: [pickup(6)], dropoffs: [] },
  { date: '2025-11-26', label: 'Wed, Nov 26', availableUnits: 0, pickups: [], dropoffs: [] },
  { date: '2025-11-27', label: 'Thu, Nov 27', availableUnits: 9, pickups: [], dropoffs: [] },
];

describe('AvailabilityCards', () => {
  it('shows the first three days, two pickups and two returns each, and counts the rest', () => {
    renderWithApp(<AvailabilityCards days={days} today="2025-11-24" onSignAgreement={() => {}} />);
    const cards = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby'));
    expect(cards.filter((id) => id?.startsWith('availability-'))).toEqual([
      'availability-2025-11-24',
      'availability-2025-11-25',
      'availability-2025-11-26',
    ]);
    const today = screen.getByRole('region', { name: 'Today' });
    expect(within(today).getByText('Patient 1')).toBeTruthy();
    expect(within(today).getByText('Patient 2')).toBeTruthy();
    // Beyond the first two, a pickup is only in the list that prints, drawn while printing.
    expect(within(today).queryAllByText('Patient 3')).toEqual([]);
    act(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    const beyondTwo = within(today).queryAllByText('Patient 3');
    expect(beyondTwo.length).toBeGreaterThan(0);
    expect(beyondTwo.every((element) => element.closest('[data-print-only]') !== null)).toBe(true);
    expect(within(today).getAllByText('Returning 3')[0]?.closest('[data-print-only]')).not.toBeNull();
    act(() => {
      window.dispatchEvent(new Event('afterprint'));
    });
    expect(within(today).queryAllByText('Patient 3')).toEqual([]);
    expect(within(today).getByText(messages.availability.morePickups(3))).toBeTruthy();
    expect(within(today).getByText(messages.availability.moreReturns(1))).toBeTruthy();
    expect(within(today).getByText(messages.availability.availableUnits(7))).toBeTruthy();

    const tomorrow = screen.getByRole('region', { name: 'Tomorrow' });
    expect(within(tomorrow).queryByText(/more pickups/)).toBeNull();
    expect(within(tomorrow).getByText(messages.emptyStates.noReturns)).toBeTruthy();
    const third = screen.getByRole('region', { name: 'Wed, Nov 26' });
    expect(within(third).getByText(messages.emptyStates.noPickups)).toBeTruthy();
  });

  it('links pickups and returns to the patient anchor', () => {
    renderWithApp(<AvailabilityCards days={days} today="2025-11-24" onSignAgreement={() => {}} />);
    expect(screen.getByRole('link', { name: /Patient 1/ }).getAttribute('href')).toBe(
      '/patients#patient-101',
    );
    expect(screen.getByRole('link', { name: /Returning 2/ }).getAttribute('href')).toBe(
      '/patients#patient-202',
    );
  });

  it('offers Sign Agreement only on confirmed pickups of today', () => {
    const onSign = vi.fn();
    renderWithApp(<AvailabilityCards days={days} today="2025-11-24" onSignAgreement={onSign} />);
    const buttons = screen.getAllByRole('button', { name: new RegExp(messages.agreement.signButton) });
    // Patient 1 (today, confirmed) only: Patient 2 is pending, Patient 6 is tomorrow.
    expect(buttons).toHaveLength(1);
    fireEvent.click(buttons[0] as HTMLElement);
    expect(onSign).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
  });

  it('says so when there is no availability data', () => {
    renderWithApp(<AvailabilityCards days={[]} today="2025-11-24" onSignAgreement={() => {}} />);
    expect(screen.getByText(messages.emptyStates.noAvailabilityData)).toBeTruthy();
  });
});
