// What the embeddable widgets say: to the visitor (on the page) and to the partner's web developer
// (in the browser console). Free of dependencies: the widgets bundle this file on its own.

/** Words every widget card shows; each widget's own title and description live beside it. */
export const widgetMessages = {
  loading: 'Loading…',
  unreachableTitle: 'This form can’t load right now',
  unreachableBody: 'We couldn’t reach the scheduling service. Please try again in a few minutes.',
  forbiddenTitle: 'This form isn’t set up for this website yet',
  forbiddenBody: 'Please contact the practice directly for now.',
  retry: 'Try again',
  poweredBy: 'Powered by Wellrest',
  optional: '(optional)',
  sending: 'Sending…',
} as const;

/** The first characters of a key: enough to find it on the embed page, not the whole key. */
export function embedKeyPrefix(key: string): string {
  const trimmed = key.trim();
  return trimmed.length > 10 ? `${trimmed.slice(0, 10)}…` : trimmed;
}

/** Console warnings for the partner's web developer, each naming the problem and the fix. */
export const widgetWarnings = {
  forbidden: (tag: string, key: string, origin: string) =>
    key.trim()
      ? `<${tag}>: Wellrest refused embed key "${embedKeyPrefix(key)}" on ${origin}. Add ${origin} to the key's allowed origins on the Wellrest console's widget embed page, or use a key that lists it.`
      : `<${tag}>: no embed-key attribute on ${origin}. Create a key that allows ${origin} on the Wellrest console's widget embed page and set it as the element's embed-key attribute.`,
  missingKey: (tag: string, origin: string) =>
    `<${tag}>: no embed-key attribute on ${origin}, which is not the Wellrest server's origin: the server will refuse this page. Create a key that allows ${origin} on the Wellrest console's widget embed page and set it as the element's embed-key attribute.`,
  accentRefused: (tag: string, value: string, fallback: string) =>
    `<${tag}>: accent-color "${value}" is not an opaque colour the widget can read (use hex, rgb() or hsl(), without transparency); using the default ${fallback}.`,
} as const;

/** The console's widget embed pages: key lifecycle, the pinned snippet and accent contrast. */
export const embedPageMessages = {
  lastUsed: 'Last used',
  neverUsed: 'Never',
  submissions30Days: 'Submissions, last 30 days',
  revokeTitle: 'Revoke this embed key?',
  revokeDescription:
    'Every partner page that uses this key stops working at once: its forms say they aren’t set up for the website.',
  revokeOrigins: 'Used on',
  revokeConfirm: 'Revoke key',
  revoking: 'Revoking…',
  restore: 'Restore',
  replace: 'Replace with a new key',
  replaceTitle: 'Replace this embed key?',
  replaceDescription:
    'A new key with the same name and origins is created and this one is revoked. Partner pages keep working only once their snippet has the new key.',
  replaceConfirm: 'Replace key',
  replacing: 'Replacing…',
  pinnedSnippet: 'Or pin this exact version (checked by the browser with its SRI hash)',
  copyPinned: 'Copy pinned snippet',
  pinnedUnavailable: 'The widget scripts are not built on this server, so there is no version to pin.',
  accentDarkText: (whiteRatio: string, ratio: string) =>
    `White text on this colour is only ${whiteRatio}:1, below WCAG AA (4.5:1): the widget will put dark text on its buttons instead (${ratio}:1).`,
  accentRefused: 'The widget can’t use this colour and will use its default accent instead.',
} as const;
