import {
  LOCKOUT_MINUTES,
  MAINTENANCE_DAYS,
  PASSWORD_MIN_LENGTH,
  SEARCH_MIN_CHARS,
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_CODE_LENGTH,
} from './constants.js';

/** A toast's title and description. */
export interface ToastText {
  readonly title: string;
  readonly description: string;
}

/**
 * Every user-facing string of the product, spelled once. Strings of spec §5 and §8 are verbatim.
 * Templates are functions. Toasts are { title, description } pairs; where the server's message
 * replaces the description, `description` holds the fallback.
 */
export const messages = {
  common: {
    error: 'Error',
    cancel: 'Cancel',
    loading: 'Loading...',
    retry: 'Try again',
    invalidRequest: 'Invalid request',
    authenticationRequired: 'Authentication required',
    forbidden: 'You do not have permission to do that',
    forbiddenPage: 'You do not have permission to view this page.',
    notFound: 'Not found',
    pageNotFound: 'Page not found',
    pageNotFoundDescription: 'The page you are looking for does not exist.',
    unexpectedError: 'Something went wrong. Please try again.',
    startingUp: 'Wellrest is starting. Please try again in a moment.',
    temporarilyUnavailable: 'Wellrest cannot reach its database right now. Please try again in a moment.',
    conflict: 'This change conflicts with the current data. Please refresh and try again.',
    /** The default data query's error: status code, a colon, a space, then the text (spec §8). */
    statusError: (status: number, text: string): string => `${status}: ${text}`,
  },
  dates: {
    invalidDate: 'Invalid date',
    outOfRange: 'Enter a date between 1900 and 2199',
    noReturnDate: 'No return date',
    today: 'Today',
    tomorrow: 'Tomorrow',
  },
  labels: {
    unknownPatient: 'Unknown Patient',
    unknownKit: 'Unknown Kit',
  },
  emptyStates: {
    noAvailabilityData: 'No availability data',
    noPickups: 'No pickups',
    noReturns: 'No returns',
    noBookingsToday: 'No bookings scheduled for today',
  },
  availability: {
    morePickups: (count: number): string => `+${count} more pickups`,
    moreReturns: (count: number): string => `+${count} more returns`,
    availableUnits: (count: number): string => `${count} ${count === 1 ? 'unit' : 'units'} available`,
    pickups: 'Pickups',
    returns: 'Returns',
  },
  search: {
    placeholder: 'Search patients, bookings, physicians...',
    minChars: `Type at least ${SEARCH_MIN_CHARS} characters to search`,
    noResults: (query: string): string => `No results found for "${query}"`,
    searching: 'Searching...',
    failed: 'Search failed',
    groups: { patient: 'Patients', booking: 'Bookings', physician: 'Physicians', referral: 'Referrals' },
  },
  privacy: {
    title: 'Privacy Policy & HIPAA Notice',
    prompt: 'Please review our privacy policy and HIPAA compliance notice before continuing.',
    readCheckbox: 'I have read and understood the privacy policy',
    agreeCheckbox: 'I agree to the terms of the privacy policy and HIPAA notice',
    acknowledgeButton: 'Acknowledge & Continue',
    acknowledging: 'Acknowledging...',
    checkFailed: 'Failed to check privacy acknowledgment',
    acknowledgeFailed: {
      title: 'Error',
      description: 'Failed to record privacy acknowledgment. Please try again.',
    } satisfies ToastText,
    acknowledged: {
      title: 'Privacy Policy Acknowledged',
      description: 'Thank you for reviewing and accepting our privacy policy.',
    } satisfies ToastText,
  },
  booking: {
    dialogTitle: 'Create New Booking',
    existingPatientTab: 'Existing Patient',
    newPatientTab: 'New Patient',
    detailsSection: 'Booking Details',
    testDuration: 'Test Duration',
    kitType: 'Kit Type',
    startDate: 'Start Date',
    notes: 'Notes',
    createButton: 'Create Booking',
    createWithPatientButton: 'Create Patient & Booking',
    creating: 'Creating...',
    newBooking: 'New Booking',
    /** The green notice under the date picker. */
    returnDateNotice: (returnDate: string): string =>
      `Return date: ${returnDate} (2 days after start, avoiding weekends)`,
    preselectedDateTip: `Tip: look for green (available) or amber (limited availability) dates. Each kit needs a ${MAINTENANCE_DAYS}-day maintenance period after the test ends.`,
    startDateRequired: 'Please select a start date',
    kitTypeRequired: 'Please select a kit type',
    kitNotAvailable: (kit: string): string =>
      `${kit} kits are not available for the selected date. Please choose a different kit type or date.`,
    patientFieldsRequired: 'Please fill in all required patient fields',
    patientRequired: 'Please select a patient',
    invalidStartDay: 'Tests can start Monday to Thursday only. Please choose another start date.',
    kitTypeUnavailableTitle: 'Kit type unavailable',
    kitTypeUnavailable: (kit: string): string =>
      `${kit} is not available for the selected date. Please choose another kit type.`,
    kitTypeUnavailableToast: (kit: string): ToastText => ({
      title: 'Kit type unavailable',
      description: `${kit} is not available for the selected date. Please choose another kit type.`,
    }),
    createFailed: { title: 'Error', description: 'Failed to create booking' } satisfies ToastText,
    created: 'Booking created successfully',
    createdWithPatient: 'Patient and booking created successfully',
    createdTitle: 'Success',
    invalidStatusChange: 'This booking cannot change to that status.',
    statusLabels: {
      pending: 'Pending',
      confirmed: 'Confirmed',
      picked_up: 'Picked up',
      completed: 'Completed',
      cancelled: 'Cancelled',
    },
  },
  patient: {
    nameRequired: 'Name is required',
    emailRequired: 'Email is required',
    emailInvalid: 'Enter a valid email address',
    phoneRequired: 'Phone is required',
    tooLong: (max: number): string => `Must be at most ${max} characters`,
  },
  agreement: {
    failed: {
      title: 'Agreement Initiation Failed',
      description: 'Failed to initiate agreement form. Please try again.',
    } satisfies ToastText,
    initiated: (patientName: string): ToastText => ({
      title: 'Agreement Form Initiated',
      description: `Agreement form opened for ${patientName}. Patient can now sign the form.`,
    }),
    signButton: 'Sign Agreement',
  },
  extension: {
    dialogTitle: 'Extend Test Duration',
    confirmButton: 'Extend Test',
    failed: {
      title: 'Extension Failed',
      description: 'Failed to extend test. Please try again.',
    } satisfies ToastText,
    extended: {
      title: 'Test Extended Successfully',
      description: 'The 2-day test has been extended to a 3-day test.',
    } satisfies ToastText,
    checkFailed: { title: 'Error', description: 'Failed to check extension eligibility' } satisfies ToastText,
    onlyTwoDay: 'Only 2-day tests can be extended.',
    onlyConfirmed: 'Only confirmed bookings can be extended.',
    noKitAvailable: (kitType: string): string =>
      `No ${kitType} kit is free for the extended test period. The test cannot be extended.`,
    swapWarning: (currentKit: string, newKit: string): string =>
      `Kit ${currentKit} is booked for the extra day. The test will move to kit ${newKit}.`,
  },
  reduction: {
    dialogTitle: 'Reduce Test Duration',
    confirmButton: 'Reduce Test',
    failed: {
      title: 'Reduction Failed',
      description: 'Failed to reduce test. Please try again.',
    } satisfies ToastText,
    reduced: {
      title: 'Test Reduced Successfully',
      description: 'The 3-day test has been reduced to a 2-day test.',
    } satisfies ToastText,
    checkFailed: { title: 'Error', description: 'Failed to check reduction eligibility' } satisfies ToastText,
    onlyThreeDay: 'Only 3-day tests can be reduced.',
    onlyConfirmed: 'Only confirmed bookings can be reduced.',
    /** The dates come formatted ('Nov 26, 2026'): the day the kit now comes back, and the day it was due. */
    canReduce: (kit: string, returnsOn: string, previously: string): string =>
      returnsOn === previously
        ? `The test will be reduced to 2 days. Kit ${kit} still comes back on ${returnsOn}.`
        : `The test will be reduced to 2 days. Kit ${kit} now comes back on ${returnsOn} instead of ${previously}.`,
  },
  ghl: {
    syncButton: 'Sync GHL',
    synced: (serverMessage: string): ToastText => ({
      title: 'GHL Sync Successful',
      description: serverMessage,
    }),
    failed: { title: 'Sync Failed', description: 'Failed to sync with GoHighLevel' } satisfies ToastText,
    notConfigured: 'GoHighLevel is not configured',
    syncSummary: (imported: number, pushed: number): string =>
      `Imported ${imported} ${imported === 1 ? 'contact' : 'contacts'} from GoHighLevel and pushed ${pushed} ${pushed === 1 ? 'patient' : 'patients'}.`,
  },
  refresh: {
    button: 'Refresh',
    refreshed: {
      title: 'Data Refreshed',
      description: 'All booking data has been updated successfully.',
    } satisfies ToastText,
    failed: {
      title: 'Refresh Failed',
      description: 'Failed to refresh data. Please try again.',
    } satisfies ToastText,
  },
  dashboard: {
    quickActions: 'Quick Actions',
    manageInventory: 'Manage Inventory',
    todaysBookings: "Today's Bookings",
    viewAll: 'View All',
    /** Today's Bookings lists its first tests; a busy day's rest open on request. */
    showAllToday: (count: number) => `Show all ${count} bookings`,
  },
  login: {
    welcome: 'Welcome',
    usernameLabel: 'Username or email',
    passwordLabel: 'Password',
    signIn: 'Sign In',
    signingIn: 'Signing in...',
    requestAccess: 'Request Access',
    codeLabel: 'Authentication code',
    trustDevice: `Trust this device for ${TRUSTED_DEVICE_DAYS} days`,
    verify: 'Verify',
    backToLogin: 'Back to login',
    usernameRequired: 'Username or email is required',
    passwordRequired: 'Password is required',
    codeLength: `The authentication code has ${TWO_FACTOR_CODE_LENGTH} characters`,
    passwordExpiredAlert: 'Your password has expired. Please contact your administrator to reset it.',
    twoFactorRequired: {
      title: '2FA Required',
      description: 'Please enter your 6-digit authentication code',
    } satisfies ToastText,
    passwordExpired: {
      title: 'Password Expired',
      description: 'You must change your password to continue',
    } satisfies ToastText,
    success: { title: 'Welcome back!', description: 'Login successful' } satisfies ToastText,
    failed: 'Login failed',
    invalidCredentials: 'Invalid username or password',
    invalidCode: 'Invalid authentication code',
    accountLocked: `Too many failed sign-in attempts. The account is locked for ${LOCKOUT_MINUTES} minutes.`,
    rateLimited: 'Too many requests. Please wait a moment and try again.',
    passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
    sessionExpired: 'Your session has ended. Please sign in again.',
  },
  /** The dialog asking why a booking is cancelled (booking detail and kanban). */
  cancelBooking: {
    title: 'Cancel booking',
    description: (patient: string): string =>
      `Cancelling frees the kit held for ${patient} and cannot be undone. Say why the booking is cancelled.`,
    reason: 'Reason for cancellation',
    confirm: 'Cancel booking',
    pending: 'Cancelling...',
    keep: 'Keep booking',
  },
  kanban: {
    recentWindow: (days: number): string => `Last ${days} days`,
    dragHandle: (patient: string): string => `Move booking of ${patient}`,
    moveRefusedTitle: 'Move not allowed',
    finalStatus: (status: string): string => `A ${status} booking is final and cannot move.`,
    allowedMoves: (from: string, to: readonly string[]): string =>
      `A ${from} booking can move to ${to.join(' or ')}.`,
    moveFailedTitle: 'Status not changed',
    moved: (status: string): string => `Booking moved to ${status}.`,
    instructions:
      'To move a booking, focus its handle and press Space. Use the left and right arrow keys to choose a column, then press Space to drop it there, or Escape to put it back.',
    pickedUp: (patient: string, column: string): string =>
      `Picked up the booking of ${patient} from ${column}.`,
    over: (patient: string, column: string): string => `Booking of ${patient} is over ${column}.`,
    dropped: (patient: string, column: string): string => `Booking of ${patient} dropped on ${column}.`,
    dropCancelled: (patient: string): string => `Moving the booking of ${patient} was cancelled.`,
  },
  navigation: {
    logout: 'Logout',
    profile: 'Profile',
    openMenu: 'Open menu',
    search: 'Search...',
  },
} as const;

export type Messages = typeof messages;
