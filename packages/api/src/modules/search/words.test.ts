import { describe, expect, it } from 'vitest';
import { editDistance, inJoinOrder, queryTerms, typosAllowed } from './words.js';

describe('search query words', () => {
  it('splits on spaces and punctuation, keeps addresses and domains whole, and reads phones as digits', () => {
    expect(queryTerms('Sophia M. Carter')).toEqual([
      { text: 'Sophia', cls: 'w', prefix: true },
      { text: 'M', cls: 'w', prefix: false },
      { text: 'Carter', cls: 'w', prefix: true },
    ]);
    expect(queryTerms("O'Brien Lee-Wong")).toEqual([
      { text: 'OBrien', cls: 'w', prefix: true },
      { text: 'Lee', cls: 'w', prefix: true },
      { text: 'Wong', cls: 'w', prefix: true },
    ]);
    expect(queryTerms('example.test')).toEqual([{ text: 'example.test', cls: 'c', prefix: true }]);
    expect(queryTerms('blake@')).toEqual([{ text: 'blake', cls: 'w', prefix: true }]);
    expect(queryTerms('(555) 014-2200')).toEqual([{ text: '5550142200', cls: 'd', prefix: true }]);
    expect(queryTerms('SOM-0001')).toEqual([
      { text: 'SOM', cls: 'w', prefix: true },
      { text: '0001', cls: 'd', prefix: true },
    ]);
    expect(queryTerms('Dr.')).toEqual([{ text: 'Dr', cls: 'w', prefix: false }]);
    expect(queryTerms('--')).toEqual([]);
  });

  it('joins the terms with the fewest entries first, ties in the order typed', () => {
    const terms = ['james', 'd', 'quellmoor', 'smith'].map((word) => new Map([[word, 0]]));
    const ordered = inJoinOrder(terms, [4_000, 4_000, 12, 300]);
    expect(ordered.terms.map((term) => [...term.keys()][0])).toEqual(['quellmoor', 'smith', 'james', 'd']);
    expect(ordered.sizes).toEqual([12, 300, 4_000, 4_000]);
  });

  it('forgives one typo from 5 letters and two from 9', () => {
    expect([4, 5, 8, 9].map(typosAllowed)).toEqual([0, 1, 1, 2]);
  });

  it('counts insertions, deletions, substitutions and transpositions of neighbours as one edit each', () => {
    expect(editDistance('testwell', 'testwell', 2)).toBe(0);
    expect(editDistance('tsetwell', 'testwell', 2)).toBe(1);
    expect(editDistance('testwll', 'testwell', 2)).toBe(1);
    expect(editDistance('testtwell', 'testwell', 2)).toBe(1);
    expect(editDistance('tastwell', 'testwell', 2)).toBe(1);
    expect(editDistance('kignsridhe', 'kingsridge', 2)).toBe(2);
    expect(editDistance('oakley', 'mockley', 1)).toBe(2);
    expect(editDistance('josé', 'jose', 1)).toBe(1);
  });
});
