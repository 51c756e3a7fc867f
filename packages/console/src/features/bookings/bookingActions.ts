import {
  type AppAbility,
  BOOKING_STATUSES,
  type BookingStatus,
  canTransitionBooking,
  isExtendable,
  isReducible,
} from '@wellrest/core';

/** What staff can do to a booking from its detail. */
export type BookingAction = 'confirm' | 'pickUp' | 'complete' | 'cancel' | 'extend' | 'reduce';

export const STATUS_ACTIONS: readonly { action: BookingAction; to: BookingStatus }[] = [
  { action: 'confirm', to: 'confirmed' },
  { action: 'pickUp', to: 'picked_up' },
  { action: 'complete', to: 'completed' },
  { action: 'cancel', to: 'cancelled' },
];

/**
 * The actions the transition rules (DESIGN.md §2) and the user's abilities allow on a booking,
 * in the order they are offered. Illegal actions are not offered at all.
 */
export function allowedActions(
  booking: { status: string; testType: string },
  ability: Pick<AppAbility, 'can'>,
): BookingAction[] {
  const actions: BookingAction[] = [];
  const known = (BOOKING_STATUSES as readonly string[]).includes(booking.status);
  if (known && ability.can('update', 'Booking')) {
    for (const { action, to } of STATUS_ACTIONS) {
      if (canTransitionBooking(booking.status as BookingStatus, to)) actions.push(action);
    }
  }
  if (ability.can('extend', 'Booking') && isExtendable(booking)) actions.push('extend');
  if (ability.can('reduce', 'Booking') && isReducible(booking)) actions.push('reduce');
  return actions;
}
