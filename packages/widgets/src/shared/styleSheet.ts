import { widgetStyles } from './widgetStyles';

/**
 * The widgets' styles as one constructable stylesheet adopted by every shadow root. A page's
 * Content-Security-Policy governs `<style>` elements (`style-src`), not stylesheets built through
 * the CSSOM, so a partner page with `style-src 'self'` and no `'unsafe-inline'` shows the widgets
 * exactly as any other page does. Browsers without constructable stylesheets (before Safari 16.4)
 * get a `<style>` element instead.
 */
let sheet: CSSStyleSheet | undefined;

function sharedSheet(): CSSStyleSheet | undefined {
  if (sheet) return sheet;
  if (typeof CSSStyleSheet !== 'function' || !('replaceSync' in CSSStyleSheet.prototype)) return undefined;
  try {
    const built = new CSSStyleSheet();
    built.replaceSync(widgetStyles);
    sheet = built;
    return sheet;
  } catch {
    return undefined;
  }
}

/** Adopts the widgets' stylesheet into `root`; false when the browser cannot (render `<style>` then). */
export function adoptWidgetStyles(root: unknown): boolean {
  if (typeof ShadowRoot === 'undefined' || !(root instanceof ShadowRoot)) return false;
  if (!('adoptedStyleSheets' in root)) return false;
  const styles = sharedSheet();
  if (!styles) return false;
  if (!root.adoptedStyleSheets.includes(styles))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles];
  return true;
}
