import { formatDate } from '../dates/calendar.js';
import { testDates } from '../dates/testDates.js';
import { isKitInService } from '../enums.js';
import { messages } from '../messages.js';
import type { ExtensionEligibility, ReductionEligibility } from '../schemas/availability.js';
import type { Booking, Kit } from '../schemas/booking.js';
import { blockedKitIds, type HoldingFields } from './engine.js';

function kitLabel(kits: readonly Kit[], id: number | null): string {
  return kits.find((k) => k.id === id)?.kitId ?? messages.labels.unknownKit;
}

/**
 * Can a confirmed 2-day booking become a 3-day one? It keeps its own kit when that kit stays free
 * for the longer window (the booking itself aside); otherwise it moves to the lowest-id free kit
 * of the same type; otherwise it cannot be extended.
 */
export function extensionEligibility(
  booking: Booking,
  kits: Kit[],
  bookings: readonly HoldingFields[],
): ExtensionEligibility {
  const refuse = (reason: string, availableKitsCount = 0): ExtensionEligibility => ({
    canExtend: false,
    requiresKitSwap: false,
    reason,
    swapWarning: null,
    availableKitsCount,
    kitType: booking.kitType,
    targetKitId: null,
  });
  if (booking.testType !== '2-day') return refuse(messages.extension.onlyTwoDay);
  if (booking.status !== 'confirmed') return refuse(messages.extension.onlyConfirmed);

  const blocked = blockedKitIds(bookings, booking.startDate, '3-day', booking.id);
  const free = kits
    .filter((k) => k.type === booking.kitType && isKitInService(k) && !blocked.has(k.id))
    .sort((a, b) => a.id - b.id);
  const allowed = (targetKitId: number, swapWarning: string | null): ExtensionEligibility => ({
    canExtend: true,
    requiresKitSwap: swapWarning !== null,
    reason: null,
    swapWarning,
    availableKitsCount: free.length,
    kitType: booking.kitType,
    targetKitId,
  });

  if (booking.kitId !== null && free.some((k) => k.id === booking.kitId)) return allowed(booking.kitId, null);
  const replacement = free[0];
  if (replacement === undefined) return refuse(messages.extension.noKitAvailable(booking.kitType));
  // A booking with no kit yet simply gets one: there is nothing to swap.
  if (booking.kitId === null) return allowed(replacement.id, null);
  return allowed(
    replacement.id,
    messages.extension.swapWarning(kitLabel(kits, booking.kitId), replacement.kitId),
  );
}

/**
 * Can a confirmed 3-day booking become a 2-day one? If so, its kit is held one day less; the
 * message says the date the kit now comes back (and the one it replaces).
 */
export function reductionEligibility(booking: Booking, kits: Kit[]): ReductionEligibility {
  if (booking.testType !== '3-day') {
    return { canReduce: false, message: messages.reduction.onlyThreeDay, kitToFree: null };
  }
  if (booking.status !== 'confirmed') {
    return { canReduce: false, message: messages.reduction.onlyConfirmed, kitToFree: null };
  }
  const kit = kits.find((k) => k.id === booking.kitId);
  const returnsOn = testDates(booking.startDate, '2-day').returnDate;
  const previously = booking.returnDate || testDates(booking.startDate, '3-day').returnDate;
  return {
    canReduce: true,
    message: messages.reduction.canReduce(
      kit?.kitId ?? messages.labels.unknownKit,
      formatDate(returnsOn),
      formatDate(previously),
    ),
    kitToFree: kit ? { id: kit.id, kitId: kit.kitId, type: kit.type } : null,
  };
}
