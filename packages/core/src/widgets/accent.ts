// The accent colour of the embeddable widgets: buttons put text on it, so the text colour is
// chosen by contrast (WCAG 2.x relative luminance), never assumed white. Pure and free of
// dependencies: the widgets bundle this file on its own.

/** sRGB channels 0–255 and alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** WCAG AA for normal text. */
export const AA_TEXT_CONTRAST = 4.5;

/** The widgets' own accent, used when a partner's colour is refused. */
export const DEFAULT_ACCENT = '#2563eb';

/**
 * Text colours for the accent, in order of preference: white, the widgets' dark ink, then black.
 * One of white and black always reaches 4.5:1 on an opaque colour (the worst case is 4.58:1).
 */
export const ACCENT_TEXT_COLORS = ['#ffffff', '#0f172a', '#000000'] as const;
export type AccentTextColor = (typeof ACCENT_TEXT_COLORS)[number];

const clampByte = (value: number) => Math.min(255, Math.max(0, value));
const clampUnit = (value: number) => Math.min(1, Math.max(0, value));

function hexColor(value: string): Rgba | undefined {
  const match = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value);
  if (!match?.[1]) return undefined;
  let hex = match[1];
  if (hex.length <= 4) hex = [...hex].map((digit) => digit + digit).join('');
  const byte = (index: number) => Number.parseInt(hex.slice(index, index + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: hex.length === 8 ? byte(6) / 255 : 1 };
}

const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`;

/** A number, or a percentage of `percentOf`. */
function channel(text: string, percentOf: number): number | undefined {
  const match = new RegExp(`^(${NUMBER})(%?)$`, 'i').exec(text);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  return match[2] ? (value / 100) * percentOf : value;
}

function hue(text: string): number | undefined {
  const match = new RegExp(`^(${NUMBER})(deg|grad|rad|turn)?$`, 'i').exec(text);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  const degrees =
    unit === 'grad'
      ? value * 0.9
      : unit === 'rad'
        ? (value * 180) / Math.PI
        : unit === 'turn'
          ? value * 360
          : value;
  return ((degrees % 360) + 360) % 360;
}

/** The arguments of `rgb(…)`/`hsl(…)` in legacy (commas) or modern (spaces, `/ alpha`) syntax. */
function functionArguments(value: string, names: RegExp): string[] | undefined {
  const match = new RegExp(`^(?:${names.source})\\(\\s*([^()]*?)\\s*\\)$`, 'i').exec(value);
  if (!match?.[1]) return undefined;
  const body = match[1];
  if (body.includes(',')) {
    const parts = body.split(/\s*,\s*/);
    return parts.length === 3 || parts.length === 4 ? parts : undefined;
  }
  const [colour, alpha, ...rest] = body.split(/\s*\/\s*/);
  if (rest.length > 0 || colour === undefined) return undefined;
  const parts = colour.split(/\s+/);
  if (parts.length !== 3) return undefined;
  return alpha === undefined ? parts : [...parts, alpha];
}

function alphaOf(text: string | undefined): number | undefined {
  if (text === undefined) return 1;
  const value = channel(text, 1);
  return value === undefined ? undefined : clampUnit(value);
}

function rgbColor(value: string): Rgba | undefined {
  const parts = functionArguments(value, /rgba?/);
  if (!parts) return undefined;
  const [r, g, b] = parts.slice(0, 3).map((part) => channel(part, 255));
  const a = alphaOf(parts[3]);
  if (r === undefined || g === undefined || b === undefined || a === undefined) return undefined;
  return { r: clampByte(r), g: clampByte(g), b: clampByte(b), a };
}

function hslColor(value: string): Rgba | undefined {
  const parts = functionArguments(value, /hsla?/);
  if (!parts) return undefined;
  const h = hue(parts[0] ?? '');
  const s = channel(parts[1] ?? '', 100);
  const l = channel(parts[2] ?? '', 100);
  const a = alphaOf(parts[3]);
  if (h === undefined || s === undefined || l === undefined || a === undefined) return undefined;
  const saturation = clampUnit(s / 100);
  const lightness = clampUnit(l / 100);
  // CSS Color 4, "Converting HSL colors to sRGB colors".
  const convert = (n: number) => {
    const k = (n + h / 30) % 12;
    const amount = saturation * Math.min(lightness, 1 - lightness);
    return 255 * (lightness - amount * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return { r: convert(0), g: convert(8), b: convert(4), a };
}

/**
 * Reads a CSS colour written as hex (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`), `rgb()`/`rgba()` or
 * `hsl()`/`hsla()`; undefined for anything else (named colours and other colour spaces are resolved
 * by the browser first, see the widgets).
 */
export function parseColor(value: string): Rgba | undefined {
  const text = value.trim();
  return hexColor(text) ?? rgbColor(text) ?? hslColor(text);
}

/** `#rrggbb` of an opaque colour. */
export function toHex({ r, g, b }: Rgba): string {
  return `#${[r, g, b].map((value) => Math.round(clampByte(value)).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.x relative luminance. */
export function relativeLuminance({ r, g, b }: Rgba): number {
  const linear = (value: number) => {
    const c = clampByte(value) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two opaque colours, 1 to 21. */
export function contrastRatio(one: Rgba, other: Rgba): number {
  const [light, dark] = [relativeLuminance(one), relativeLuminance(other)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** The first text colour (white, dark ink, black) that reaches AA on `accent`, and its ratio. */
export function accentTextColor(accent: Rgba): { text: AccentTextColor; ratio: number } {
  let best: { text: AccentTextColor; ratio: number } = { text: '#000000', ratio: 0 };
  for (const text of ACCENT_TEXT_COLORS) {
    const ratio = contrastRatio(accent, hexColor(text) as Rgba);
    if (ratio >= AA_TEXT_CONTRAST) return { text, ratio };
    if (ratio > best.ratio) best = { text, ratio };
  }
  return best;
}

export type AccentChoice =
  | { ok: true; accent: string; text: AccentTextColor; ratio: number }
  /** `malformed`: not a colour we can read; `translucent`: its contrast depends on the page behind it;
   * `low-contrast`: no text colour reaches AA on it (never for an opaque colour). */
  | { ok: false; reason: 'malformed' | 'translucent' | 'low-contrast' };

/**
 * The accent a widget uses for `value` and the text colour on it, or why the colour is refused
 * (the widget then keeps its default accent and says so in the console).
 */
export function chooseAccent(value: string): AccentChoice {
  const color = parseColor(value);
  if (!color) return { ok: false, reason: 'malformed' };
  if (color.a < 1) return { ok: false, reason: 'translucent' };
  // Judged on the colour as the widget will paint it: rounded to whole bytes (hsl() is fractional).
  const accent = toHex(color);
  const { text, ratio } = accentTextColor(hexColor(accent) as Rgba);
  if (ratio < AA_TEXT_CONTRAST) return { ok: false, reason: 'low-contrast' };
  return { ok: true, accent, text, ratio };
}
