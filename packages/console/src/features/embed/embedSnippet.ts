import type { EmbedTheme, WidgetScript } from '@wellrest/core';

/** The three embeddable elements and the script that carries each one alone. */
export const EMBED_WIDGETS = {
  booking: {
    tag: 'wellrest-booking',
    script: 'wellrest-booking.js',
    page: '/widget',
    title: 'Booking widget',
  },
  referral: {
    tag: 'wellrest-physician-referral',
    script: 'wellrest-physician-referral.js',
    page: '/physician-widget',
    title: 'Physician referral widget',
  },
  signup: {
    tag: 'wellrest-physician-signup',
    script: 'wellrest-physician-signup.js',
    page: '/physician-signup-widget',
    title: 'Physician signup widget',
  },
} as const;

export type EmbedWidget = keyof typeof EMBED_WIDGETS;
export type { EmbedTheme };

export interface SnippetOptions {
  widget: EmbedWidget;
  origin: string;
  embedKey: string;
  theme: EmbedTheme;
  accentColor: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The exact HTML a partner pastes: the script tag and the element with its attributes. */
export function embedSnippet({ widget, origin, embedKey, theme, accentColor }: SnippetOptions): string {
  const { tag, script } = EMBED_WIDGETS[widget];
  const attributes = [
    `api-base="${escapeAttribute(origin)}"`,
    `embed-key="${escapeAttribute(embedKey)}"`,
    theme === 'light' ? '' : `theme="${theme}"`,
    accentColor ? `accent-color="${escapeAttribute(accentColor)}"` : '',
  ].filter(Boolean);
  return `<script src="${escapeAttribute(origin)}/widgets/${script}" defer></script>\n<${tag} ${attributes.join(' ')}></${tag}>`;
}

/** The element alone, with its attributes. */
function elementTag({ widget, origin, embedKey, theme, accentColor }: SnippetOptions): string {
  const { tag } = EMBED_WIDGETS[widget];
  const attributes = [
    `api-base="${escapeAttribute(origin)}"`,
    `embed-key="${escapeAttribute(embedKey)}"`,
    theme === 'light' ? '' : `theme="${theme}"`,
    accentColor ? `accent-color="${escapeAttribute(accentColor)}"` : '',
  ].filter(Boolean);
  return `<${tag} ${attributes.join(' ')}></${tag}>`;
}

/**
 * The same element with the content-hashed script of this exact build and its SRI hash: the
 * browser refuses the script if it ever differs. `crossorigin` is what makes the check possible.
 */
export function pinnedEmbedSnippet(options: SnippetOptions, script: WidgetScript): string {
  return `<script src="${escapeAttribute(options.origin + script.versionedPath)}" integrity="${escapeAttribute(script.integrity)}" crossorigin="anonymous" defer></script>\n${elementTag(options)}`;
}

/** The widget's own script among those the server lists. */
export function scriptFor(widget: EmbedWidget, scripts: readonly WidgetScript[]): WidgetScript | undefined {
  return scripts.find((script) => script.file === EMBED_WIDGETS[widget].script);
}

/**
 * The same form framed full-page, for partner sites that cannot add scripts: the key in the URL
 * lets the page name the key's origins in its `frame-ancestors`, so only those sites may frame it.
 */
export function embedFrameSnippet({ widget, origin, embedKey, theme, accentColor }: SnippetOptions): string {
  const { page, title } = EMBED_WIDGETS[widget];
  const query = new URLSearchParams({ key: embedKey });
  if (theme !== 'light') query.set('theme', theme);
  if (accentColor) query.set('accent', accentColor);
  const src = `${origin}${page}?${query}`;
  return `<iframe src="${escapeAttribute(src)}" title="${title}" loading="lazy" style="width:100%;min-height:720px;border:0"></iframe>`;
}

/** One origin per line (or comma-separated) → trimmed list without blanks or duplicates. */
export function parseOrigins(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    ),
  ];
}
