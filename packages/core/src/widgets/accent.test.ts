import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AA_TEXT_CONTRAST,
  accentTextColor,
  chooseAccent,
  contrastRatio,
  DEFAULT_ACCENT,
  parseColor,
  type Rgba,
  toHex,
} from './accent.js';

const byte = fc.integer({ min: 0, max: 255 });
const opaque = fc.record({ r: byte, g: byte, b: byte, a: fc.constant(1) });
const hex = (value: number) => value.toString(16).padStart(2, '0');

describe('accent text colour', () => {
  it('reaches AA on every opaque colour', () => {
    fc.assert(
      fc.property(opaque, (accent) => {
        const { text, ratio } = accentTextColor(accent);
        expect(ratio).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
        expect(contrastRatio(accent, parseColor(text) as Rgba)).toBeCloseTo(ratio, 10);
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts every opaque colour written as hex, rgb() or hsl(), reaching AA', () => {
    const written = fc.oneof(
      fc.tuple(byte, byte, byte).map(([r, g, b]) => `#${hex(r)}${hex(g)}${hex(b)}`),
      fc.tuple(byte, byte, byte).map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`),
      fc.tuple(byte, byte, byte).map(([r, g, b]) => `rgb(${r} ${g} ${b} / 100%)`),
      fc
        .tuple(
          fc.integer({ min: 0, max: 359 }),
          fc.integer({ min: 0, max: 100 }),
          fc.integer({ min: 0, max: 100 }),
        )
        .map(([h, s, l]) => `hsl(${h}deg ${s}% ${l}%)`),
    );
    fc.assert(
      fc.property(written, (value) => {
        const choice = chooseAccent(value);
        expect(choice.ok).toBe(true);
        if (choice.ok) {
          expect(choice.ratio).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
          expect(
            contrastRatio(parseColor(choice.accent) as Rgba, parseColor(choice.text) as Rgba),
          ).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('judges a fractional hsl() colour as painted, rounded to whole bytes', () => {
    // Unrounded, white-or-ink text reached AA on it; on the colour as painted it did not (4.48:1).
    const choice = chooseAccent('hsl(158deg 98% 29%)');
    expect(choice.ok).toBe(true);
    if (choice.ok)
      expect(
        contrastRatio(parseColor(choice.accent) as Rgba, parseColor(choice.text) as Rgba),
      ).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
  });

  it('keeps white text where it reaches AA and switches to dark text where it does not', () => {
    // The example page's colours: white on them is 3.74:1 and 2.15:1.
    expect(chooseAccent('#0d9488')).toMatchObject({ ok: true, text: '#0f172a' });
    expect(chooseAccent('#f59e0b')).toMatchObject({ ok: true, text: '#0f172a' });
    expect(chooseAccent(DEFAULT_ACCENT)).toMatchObject({ ok: true, text: '#ffffff' });
    expect(chooseAccent('#000')).toMatchObject({ ok: true, accent: '#000000', text: '#ffffff' });
    expect(chooseAccent('#FFF')).toMatchObject({ ok: true, accent: '#ffffff', text: '#0f172a' });
  });

  it('matches published contrast ratios', () => {
    const white = parseColor('#fff') as Rgba;
    expect(contrastRatio(white, parseColor('#000') as Rgba)).toBeCloseTo(21, 5);
    expect(contrastRatio(white, parseColor('#0d9488') as Rgba)).toBeCloseTo(3.74, 2);
    expect(contrastRatio(white, parseColor('#767676') as Rgba)).toBeCloseTo(4.54, 2);
  });
});

describe('reading a colour', () => {
  it('reads the written forms the same way', () => {
    for (const value of ['#2563eb', '#2563EBff', 'rgb(37, 99, 235)', 'rgba(37,99,235,1)', 'rgb(37 99 235)']) {
      expect(toHex(parseColor(value) as Rgba), value).toBe('#2563eb');
    }
    expect(toHex(parseColor('hsl(0 100% 50%)') as Rgba)).toBe('#ff0000');
    expect(toHex(parseColor('hsl(120, 100%, 25%)') as Rgba)).toBe('#008000');
    expect(toHex(parseColor('hsl(0.5turn 100% 50%)') as Rgba)).toBe('#00ffff');
  });

  it('refuses malformed and translucent colours, and never throws', () => {
    for (const value of [
      '',
      'blue-ish',
      '#12',
      '#1234567',
      'rgb(1,2)',
      'rgb(1 2 3 4)',
      'hsl(x 1% 1%)',
      'url(x)',
    ]) {
      expect(chooseAccent(value), value).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(chooseAccent('#2563eb80')).toEqual({ ok: false, reason: 'translucent' });
    expect(chooseAccent('rgb(37 99 235 / 0.5)')).toEqual({ ok: false, reason: 'translucent' });
    fc.assert(
      fc.property(fc.string(), (value) => {
        const choice = chooseAccent(value);
        if (choice.ok) expect(choice.ratio).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
      }),
    );
  });
});
