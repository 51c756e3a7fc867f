import {
  addDays,
  availabilityLevel,
  compareDates,
  isValidStartDate,
  kitTypeAvailabilityByDate,
  MAINTENANCE_DAYS,
  type PublicAvailability,
  type PublicAvailabilityQuery,
  TEST_END_OFFSET_DAYS,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { loadKitsAndHolds } from '../bookings/store.js';

/**
 * Levels only: how many kits are free is reduced to available / limited / none, and nothing of
 * any booking leaves the server. Past dates are 'none' and never a valid start.
 */
export async function publicAvailability(
  db: Knex,
  query: PublicAvailabilityQuery,
  today: string,
): Promise<PublicAvailability> {
  const lastStart = addDays(query.from, query.days - 1);
  const window = {
    from: query.from,
    to: addDays(lastStart, TEST_END_OFFSET_DAYS[query.testType] + MAINTENANCE_DAYS),
  };
  const { kits, holds } = await loadKitsAndHolds(db, query.kitType, window);
  const byDate = kitTypeAvailabilityByDate(query.kitType, kits, holds, query, query.testType);
  return {
    days: byDate.map(({ date, available }) => {
      const past = compareDates(date, today) < 0;
      return {
        date,
        level: past ? 'none' : availabilityLevel(available),
        validStart: !past && isValidStartDate(date, query.testType),
      };
    }),
  };
}
