import type { SearchResult } from '@wellrest/core';
import { expect, it } from 'vitest';
import { groupSearchResults } from './searchResults';

it('groups results under Patients, Bookings, Physicians and Referrals, skipping empty groups', () => {
  const results: SearchResult[] = [
    { type: 'referral', id: 4, title: 'R', url: '/referrals?referral=4' },
    { type: 'patient', id: 1, title: 'P', url: '/patients#patient-1' },
    { type: 'patient', id: 2, title: 'Q', url: '/patients#patient-2' },
    { type: 'booking', id: 3, title: 'B', url: '/bookings-management?booking=3' },
  ];
  expect(groupSearchResults(results).map((g) => [g.heading, g.results.map((r) => r.id)])).toEqual([
    ['Patients', [1, 2]],
    ['Bookings', [3]],
    ['Referrals', [4]],
  ]);
});
