/*
 * Telling a scanner from a person typing: keyboard-wedge scanners "type" a whole code in a few
 * milliseconds per key and usually end it with Enter or Tab; people take 80 ms or more per key.
 */

export interface Keystroke {
  key: string;
  /** Milliseconds (the event's timeStamp, on performance.now()'s clock) when the key went down. */
  at: number;
}

export interface ScanCapture {
  /** Every key, invisible ones as named tokens ("Enter", "Tab"). */
  tokens: { key: string; visible: boolean }[];
  /** The printable characters typed. */
  text: string;
  /** The invisible keys that ended the capture (e.g. "Enter"), or null. */
  suffix: string | null;
  totalMs: number;
  averageGapMs: number;
  maxGapMs: number;
  looksLikeScanner: boolean;
}

/** Keys that only change other keys: not part of what was typed. */
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock']);

/** The fastest a person types, per key: anything quicker is a machine. */
export const SCANNER_MAX_GAP_MS = 50;

const printable = (key: string) => key.length === 1;

export function analyzeKeystrokes(keystrokes: Keystroke[]): ScanCapture {
  const keys = keystrokes.filter((k) => !MODIFIERS.has(k.key));
  const tokens = keys.map((k) => ({ key: k.key, visible: printable(k.key) }));
  const text = keys
    .filter((k) => printable(k.key))
    .map((k) => k.key)
    .join('');
  let trailing = keys.length;
  while (trailing > 0 && !printable(keys[trailing - 1]?.key ?? 'x')) trailing -= 1;
  const suffixKeys = keys.slice(trailing).map((k) => k.key);
  const gaps = keys.slice(1).map((k, i) => k.at - (keys[i]?.at ?? k.at));
  const totalMs = keys.length > 1 ? (keys.at(-1)?.at ?? 0) - (keys[0]?.at ?? 0) : 0;
  const averageGapMs = gaps.length > 0 ? totalMs / gaps.length : 0;
  const maxGapMs = gaps.length > 0 ? Math.max(...gaps) : 0;
  return {
    tokens,
    text,
    suffix: suffixKeys.length > 0 ? suffixKeys.join(' + ') : null,
    totalMs: Math.round(totalMs),
    averageGapMs: Math.round(averageGapMs * 10) / 10,
    maxGapMs: Math.round(maxGapMs),
    looksLikeScanner: text.length >= 3 && averageGapMs <= SCANNER_MAX_GAP_MS,
  };
}
