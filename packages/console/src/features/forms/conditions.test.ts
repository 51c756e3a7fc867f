import { describe, expect, it } from 'vitest';
import { fromRule, toRule } from './conditions';

describe('builder conditions', () => {
  it('writes and reads back simple JSON Logic rules', () => {
    const rule = toRule({ fieldId: 'snores', operator: '==', value: 'yes' });
    expect(rule).toEqual({ '==': [{ var: 'snores' }, 'yes'] });
    expect(fromRule(rule)).toEqual({ fieldId: 'snores', operator: '==', value: 'yes' });
    expect(toRule({ fieldId: 'nights', operator: '>', value: '3' })).toEqual({ '>': [{ var: 'nights' }, 3] });
  });

  it('leaves other rules alone', () => {
    expect(fromRule({ and: [{ '==': [{ var: 'a' }, 1] }, { '==': [{ var: 'b' }, 2] }] })).toBeNull();
    expect(fromRule(undefined)).toBeNull();
  });
});
