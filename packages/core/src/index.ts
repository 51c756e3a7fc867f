// @wellrest/core: the domain rules every Wellrest package shares. Pure: no I/O.

export * from './admin/index.js';
export * from './auth.js';
export * from './availability/eligibility.js';
export {
  availableKitsOfType,
  availableKitTypes,
  dailyAvailability,
  type HoldingFields,
  isKitFree,
  kitTypeAvailabilityByDate,
} from './availability/engine.js';
export * from './booking/status.js';
export * from './booking/validateBookingSubmission.js';
export * from './clinical/index.js';
export * from './constants.js';
export * from './dates/calendar.js';
export * from './dates/testDates.js';
export * from './enums.js';
export * from './forms/index.js';
export * from './front-desk/kit-counts.js';
export * from './front-desk/kit-utilisation.js';
export * from './front-desk/messages.js';
export * from './front-desk/schemas.js';
export * from './ghl.js';
export * from './housekeeping.js';
export * from './http/errors.js';
export * from './inventory.js';
export * from './messages.js';
export * from './messaging/index.js';
export * from './navigation/navigation.js';
export * from './navigation/routes.js';
export * from './operations.js';
export * from './patient-list.js';
export * from './permissions/ability.js';
export * from './permissions/routes.js';
export * from './privacy/notice.js';
export { sha256Hex } from './privacy/sha256.js';
export * from './public.js';
export { naiveAvailableKitsOfType, naiveDailyAvailability } from './reference.js';
export * from './schemas/auth.js';
export * from './schemas/availability.js';
export * from './schemas/booking.js';
export * from './schemas/common.js';
export * from './schemas/dashboard.js';
export * from './schemas/patient.js';
export * from './schemas/privacy.js';
export * from './schemas/search.js';
export * from './theme/index.js';
export { shellMessages } from './theme/messages.js';
export * from './widgets/index.js';
export * from './workflows/index.js';
