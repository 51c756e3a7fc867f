import { afterEach, describe, expect, it, vi } from 'vitest';
import { signSessionToken, verifySessionToken } from './tokens.js';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const CLAIMS = { sid: 'session-1', sub: '42' };

describe('session tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the claims of a valid token each time it is sent', () => {
    const token = signSessionToken(SECRET, CLAIMS, new Date(Date.now() + 60_000));
    expect(verifySessionToken(SECRET, token)).toEqual(CLAIMS);
    expect(verifySessionToken(SECRET, token)).toEqual(CLAIMS);
  });

  it('refuses a token signed with another secret or with its signature changed', () => {
    const token = signSessionToken(SECRET, CLAIMS, new Date(Date.now() + 60_000));
    expect(verifySessionToken(SECRET, token)).toEqual(CLAIMS);
    expect(verifySessionToken(`${SECRET}-rotated`, token)).toBeUndefined();
    const [header, payload, signature = ''] = token.split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(verifySessionToken(SECRET, forged)).toBeUndefined();
    const otherKey = signSessionToken(
      'another-secret-of-thirty-two-characters!',
      { ...CLAIMS, sub: '7' },
      new Date(Date.now() + 60_000),
    );
    expect(verifySessionToken(SECRET, otherKey)).toBeUndefined();
  });

  it('refuses a token once it expired, whether it was verified before or not', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-28T09:00:00Z'));
    const seen = signSessionToken(SECRET, CLAIMS, new Date('2026-11-28T09:01:00Z'));
    const unseen = signSessionToken(
      SECRET,
      { ...CLAIMS, sid: 'session-2' },
      new Date('2026-11-28T09:01:00Z'),
    );
    expect(verifySessionToken(SECRET, seen)).toEqual(CLAIMS);
    vi.setSystemTime(new Date('2026-11-28T09:01:00Z'));
    expect(verifySessionToken(SECRET, seen)).toBeUndefined();
    expect(verifySessionToken(SECRET, unseen)).toBeUndefined();
  });

  it('refuses what is not a token', () => {
    expect(verifySessionToken(SECRET, 'not-a-token')).toBeUndefined();
    expect(verifySessionToken(SECRET, '')).toBeUndefined();
  });
});
