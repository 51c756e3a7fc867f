/**
 * The origin of the script that is being evaluated, so a partner page that loads
 * `https://clinic.example/widgets/wellrest-widgets.js` talks to `https://clinic.example` without
 * setting `api-base`. `document.currentScript` is only set while a classic script first runs, so it
 * is read once, at load; ES module builds fall back to the page's own origin.
 */
const scriptOrigin = originOfCurrentScript();

function originOfCurrentScript(): string {
  if (typeof document === 'undefined') return '';
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) return '';
  try {
    const url = new URL(script.src);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : '';
  } catch {
    return '';
  }
}

/** The base every API path is appended to, without a trailing slash (`''` means the page's origin). */
export function resolveApiBase(apiBase: string | undefined): string {
  const base = apiBase?.trim() || scriptOrigin;
  return base.replace(/\/+$/, '');
}
