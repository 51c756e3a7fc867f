import { describe, expect, it } from 'vitest';
import { fuzzyCoversSubstrings, fuzzyThreshold, fuzzyWords } from './matching.js';

describe('fuzzy matching rules', () => {
  it('matches each word of three letters or more, split on spaces and punctuation', () => {
    expect(fuzzyWords('Sophia M. Carter')).toEqual(['Sophia', 'Carter']);
    expect(fuzzyWords('sophia.carter.20000')).toEqual(['sophia', 'carter', '20000']);
    expect(fuzzyWords("O'Brien")).toEqual(["O'Brien"]);
    expect(fuzzyWords('Al')).toEqual(['Al']);
  });

  it('asks more of long words than of short ones, between 0.3 and 0.6', () => {
    expect(fuzzyThreshold('smyth')).toBe(0.3);
    expect(fuzzyThreshold('Catrer')).toBeCloseTo(0.375);
    expect(fuzzyThreshold('Kingsridge')).toBeCloseTo(0.583, 3);
    expect(fuzzyThreshold('Bartholomewson')).toBe(0.6);
    // The shortest word decides.
    expect(fuzzyThreshold('Kingsridge Ann')).toBe(0.3);
  });

  it('leaves the substring test out only when word similarity is sure to find every such name', () => {
    expect(fuzzyCoversSubstrings('mith')).toBe(true);
    expect(fuzzyCoversSubstrings('Sophia Carter')).toBe(true);
    expect(fuzzyCoversSubstrings('Sophia M. Carter')).toBe(true);
    expect(fuzzyCoversSubstrings('mit')).toBe(false);
    expect(fuzzyCoversSubstrings('Ann Carter')).toBe(false);
    expect(fuzzyCoversSubstrings("O'Brien")).toBe(false);
    expect(fuzzyCoversSubstrings('Al')).toBe(false);
  });
});
