import { describe, expect, it } from 'vitest';
import { analyzeKeystrokes, type Keystroke } from './keystrokes';

const typed = (keys: string[], gapMs: number): Keystroke[] =>
  keys.map((key, i) => ({ key, at: 1000 + i * gapMs }));

describe('analyzeKeystrokes', () => {
  it('reads a fast burst ending in Enter as a scanner, with Enter as its suffix', () => {
    const capture = analyzeKeystrokes(typed([...'SOM-001', 'Enter'], 6));
    expect(capture.text).toBe('SOM-001');
    expect(capture.suffix).toBe('Enter');
    expect(capture.tokens.at(-1)).toEqual({ key: 'Enter', visible: false });
    expect(capture.totalMs).toBe(42);
    expect(capture.averageGapMs).toBe(6);
    expect(capture.looksLikeScanner).toBe(true);
  });

  it('reads slow keys as typing, and ignores modifier keys', () => {
    const capture = analyzeKeystrokes(typed(['Shift', 'A', 'B', 'C', 'D', 'Tab'], 120));
    expect(capture.text).toBe('ABCD');
    expect(capture.suffix).toBe('Tab');
    expect(capture.looksLikeScanner).toBe(false);
  });

  it('names several trailing keys, and none when the code ends in a character', () => {
    expect(analyzeKeystrokes(typed([...'ZM1', 'Tab', 'Enter'], 4)).suffix).toBe('Tab + Enter');
    expect(analyzeKeystrokes(typed([...'ZM1'], 4)).suffix).toBeNull();
    expect(analyzeKeystrokes([])).toMatchObject({ text: '', totalMs: 0, looksLikeScanner: false });
  });
});
