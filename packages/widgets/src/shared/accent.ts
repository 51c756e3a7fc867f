import { type AccentChoice, chooseAccent, DEFAULT_ACCENT } from '@wellrest/core/widgets';

/**
 * The accent a widget uses and the text colour on it (core's contrast rule). Hex, `rgb()` and
 * `hsl()` are read directly; other CSS colours (names, other colour spaces) are first resolved by
 * the browser to sRGB through a canvas.
 */
export function resolveAccent(value: string): AccentChoice {
  const direct = chooseAccent(value);
  if (direct.ok || direct.reason !== 'malformed') return direct;
  const resolved = browserColor(value);
  return resolved ? chooseAccent(resolved) : direct;
}

function browserColor(value: string): string | undefined {
  if (typeof CSS === 'undefined' || typeof CSS.supports !== 'function' || !CSS.supports('color', value)) {
    return undefined;
  }
  try {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return undefined;
    context.fillStyle = '#000000';
    context.fillStyle = value;
    return typeof context.fillStyle === 'string' ? context.fillStyle : undefined;
  } catch {
    return undefined;
  }
}

export { DEFAULT_ACCENT };
