/** Words every widget card uses; each widget's own title and description live beside it. */
export const widgetCopy = {
  loading: 'Loading…',
  unreachableTitle: 'This form can’t load right now',
  unreachableBody: 'We couldn’t reach the scheduling service. Please try again in a few minutes.',
  retry: 'Try again',
  poweredBy: 'Powered by Wellrest',
  optional: '(optional)',
  sending: 'Sending…',
} as const;
