import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { StatusBadge, statusLabel, statusTone } from './StatusBadge';

it('colours statuses as the spec says, unknown ones grey', () => {
  expect(['pending', 'confirmed', 'picked_up', 'completed', 'cancelled', 'on_hold'].map(statusTone)).toEqual([
    'yellow',
    'green',
    'purple',
    'blue',
    'red',
    'grey',
  ]);
});

it('labels a status, and an unknown one as written', () => {
  expect(statusLabel('picked_up')).toBe('Picked up');
  expect(statusLabel('on_hold')).toBe('on hold');
  render(<StatusBadge status="confirmed" />);
  expect(screen.getByText('Confirmed').className).toContain('bg-green-50');
});
