/** The custom element names, one per widget. */
export const WIDGET_TAGS = {
  booking: 'wellrest-booking',
  physicianReferral: 'wellrest-physician-referral',
  physicianSignup: 'wellrest-physician-signup',
} as const;

export type WidgetTag = (typeof WIDGET_TAGS)[keyof typeof WIDGET_TAGS];
