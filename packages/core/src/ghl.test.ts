import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GhlBaseUrl, ghlMessages, ghlNameDecision, isAllowedGhlBaseUrl } from './ghl.js';

describe('GoHighLevel base URL', () => {
  it('takes https anywhere and http only to a loopback host', () => {
    expect(isAllowedGhlBaseUrl('https://services.leadconnectorhq.com')).toBe(true);
    expect(isAllowedGhlBaseUrl('http://127.0.0.1:4010')).toBe(true);
    expect(isAllowedGhlBaseUrl('http://localhost:4010')).toBe(true);
    expect(isAllowedGhlBaseUrl('http://[::1]:4010')).toBe(true);
    expect(isAllowedGhlBaseUrl('http://services.leadconnectorhq.com')).toBe(false);
    expect(isAllowedGhlBaseUrl('http://127.0.0.1.example.com')).toBe(false);
    expect(isAllowedGhlBaseUrl('https://user:pw@example.com')).toBe(false);
    expect(isAllowedGhlBaseUrl('ftp://x')).toBe(false);
    expect(isAllowedGhlBaseUrl('not a url')).toBe(false);
    const parsed = GhlBaseUrl.safeParse('http://10.0.0.5');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(ghlMessages.insecureBaseUrl);
  });

  it('never lets plain http through to a host that is not loopback', () => {
    fc.assert(
      fc.property(fc.domain(), (host) => {
        fc.pre(host !== 'localhost' && !host.endsWith('.localhost'));
        expect(isAllowedGhlBaseUrl(`http://${host}/`)).toBe(false);
        expect(isAllowedGhlBaseUrl(`https://${host}/`)).toBe(true);
      }),
    );
  });
});

describe('GoHighLevel name decision', () => {
  it('follows the side that changed, and calls a change on both a conflict', () => {
    expect(ghlNameDecision('Ann A', 'Ann A', 'Ann A')).toBe('same');
    expect(ghlNameDecision('Ann A', 'Ann A', 'Ann B')).toBe('take_remote');
    expect(ghlNameDecision('Ann A', 'Ann C', 'Ann A')).toBe('keep_local');
    expect(ghlNameDecision('Ann A', 'Ann C', 'Ann B')).toBe('conflict');
    expect(ghlNameDecision('Ann A', 'Ann B', 'Ann B')).toBe('same');
    expect(ghlNameDecision(undefined, 'Ann C', 'Ann B')).toBe('take_remote');
  });

  it('never overwrites a local change', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (synced, local, remote) => {
        const decision = ghlNameDecision(synced, local, remote);
        if (local !== synced && local !== remote) expect(['keep_local', 'conflict']).toContain(decision);
        if (local === synced && remote !== synced) expect(decision).toBe('take_remote');
      }),
    );
  });
});

describe('GoHighLevel messages', () => {
  it("words a rejection with the field and GoHighLevel's own message", () => {
    expect(ghlMessages.rejected('phone', 'phone must be a valid phone number')).toBe(
      'rejected by GoHighLevel: phone — phone must be a valid phone number',
    );
    expect(ghlMessages.syncSummary({ imported: 1, pushed: 2, rejected: 0, conflicts: 0 })).toBe(
      'Imported 1 contact from GoHighLevel and pushed 2 patients.',
    );
    expect(ghlMessages.syncSummary({ imported: 0, pushed: 0, rejected: 1, conflicts: 2 })).toContain(
      '1 patient was rejected by GoHighLevel; 2 conflicts need a decision',
    );
  });
});
