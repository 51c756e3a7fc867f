/**
 * What a partner page can set on every widget element, as attributes (`api-base`, `embed-key`,
 * `theme`, `accent-color`) or as properties of the same camelCase names.
 */
export interface WidgetProps {
  /** Origin of the Wellrest server. Defaults to the origin the widget script was loaded from. */
  apiBase?: string;
  /** The partner's embed key, issued on the console's embed pages. */
  embedKey?: string;
  /** `light` (default), `dark`, or `auto` to follow the visitor's system setting. */
  theme?: string;
  /**
   * An opaque CSS colour. Text on it is white or dark, whichever reaches 4.5:1; a colour the
   * widget cannot read (or a translucent one) is refused with a console warning.
   */
  accentColor?: string;
  /** Where r2wc renders the component: the element's shadow root. */
  container?: ShadowRoot | HTMLElement;
}

/** How r2wc turns attributes into props; attribute names are the kebab-case of these keys. */
export const widgetPropTypes = {
  apiBase: 'string',
  embedKey: 'string',
  theme: 'string',
  accentColor: 'string',
} as const;

export type WidgetTheme = 'light' | 'dark' | 'auto';

export function widgetTheme(theme: string | undefined): WidgetTheme {
  const requested = theme?.trim().toLowerCase();
  return requested === 'dark' || requested === 'auto' ? requested : 'light';
}
