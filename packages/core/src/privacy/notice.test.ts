import { describe, expect, it } from 'vitest';
import { messages } from '../messages.js';
import { privacyNotice, privacyNoticeHash, privacyNoticeText } from './notice.js';
import { sha256Hex } from './sha256.js';

const input = { email: 'privacy@clinic.example', phone: '(555) 010-0199', version: '2.1' };

describe('privacyNotice', () => {
  const notice = privacyNotice(input);

  it('has the title, prompt and sections of spec §2', () => {
    expect(notice.title).toBe('Privacy Policy & HIPAA Notice');
    expect(notice.prompt).toBe(messages.privacy.prompt);
    expect(notice.sections.map((s) => s.heading)).toEqual([
      'HIPAA Privacy Notice',
      'Your Rights',
      'Uses and Disclosures',
      'Security',
      'Contact Information',
    ]);
    for (const section of notice.sections) expect(section.paragraphs.length).toBeGreaterThan(0);
  });

  it("names the privacy officer's email and phone", () => {
    const contact = notice.sections.at(-1)?.paragraphs.join(' ') ?? '';
    expect(contact).toContain('privacy@clinic.example');
    expect(contact).toContain('(555) 010-0199');
  });

  it('says when it was last updated and which version it is', () => {
    expect(notice.lastUpdated).toBe('This policy was last updated on January 1, 2025. Version 2.1.');
  });
});

describe('privacyNoticeText and its hash', () => {
  it('is the notice as plain text', () => {
    const text = privacyNoticeText(input);
    expect(text.startsWith('Privacy Policy & HIPAA Notice\n\nPlease review')).toBe(true);
    expect(text.endsWith('Version 2.1.')).toBe(true);
    expect(text).toContain('\n\nContact Information\n\n');
  });

  it('hashes to a SHA-256 that changes with the version', () => {
    const hash = privacyNoticeHash(input);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(sha256Hex(privacyNoticeText(input)));
    expect(privacyNoticeHash({ ...input, version: '2.2' })).not.toBe(hash);
  });
});

describe('sha256Hex', () => {
  // FIPS 180-4 / NIST test vectors and well-known digests.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'The quick brown fox jumps over the lazy dog',
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    ],
  ])('hashes %j', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  it('hashes a million a', () => {
    expect(sha256Hex('a'.repeat(1_000_000))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    // Digests of the UTF-8 encodings (2, 3 and 4-byte characters), as `sha256sum` prints them.
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    expect(sha256Hex('日本 😀')).toBe('3d55913885fee5c317f716b93f695df3fae14628b64d8f25ebc3a8afde76c72d');
  });
});
