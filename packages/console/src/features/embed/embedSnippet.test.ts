import { describe, expect, it } from 'vitest';
import { embedFrameSnippet, embedSnippet, parseOrigins, pinnedEmbedSnippet, scriptFor } from './embedSnippet';

describe('embedSnippet', () => {
  it('gives the script tag and the element with the chosen key, theme and accent', () => {
    expect(
      embedSnippet({
        widget: 'referral',
        origin: 'https://wellrest.example',
        embedKey: 'wk_abc',
        theme: 'dark',
        accentColor: '#0d9488',
      }),
    ).toBe(
      '<script src="https://wellrest.example/widgets/wellrest-physician-referral.js" defer></script>\n' +
        '<wellrest-physician-referral api-base="https://wellrest.example" embed-key="wk_abc" theme="dark" accent-color="#0d9488"></wellrest-physician-referral>',
    );
  });

  it('leaves out the default light theme and an empty accent', () => {
    const snippet = embedSnippet({
      widget: 'booking',
      origin: 'http://localhost:3000',
      embedKey: 'k"1',
      theme: 'light',
      accentColor: '',
    });
    expect(snippet).toContain(
      '<wellrest-booking api-base="http://localhost:3000" embed-key="k&quot;1"></wellrest-booking>',
    );
  });
});

describe('embedFrameSnippet', () => {
  it('frames the full-page form with the key, theme and accent in its address', () => {
    expect(
      embedFrameSnippet({
        widget: 'signup',
        origin: 'https://wellrest.example',
        embedKey: 'wk_abc',
        theme: 'dark',
        accentColor: '#0d9488',
      }),
    ).toBe(
      '<iframe src="https://wellrest.example/physician-signup-widget?key=wk_abc&amp;theme=dark&amp;accent=%230d9488" ' +
        'title="Physician signup widget" loading="lazy" style="width:100%;min-height:720px;border:0"></iframe>',
    );
  });
});

describe('parseOrigins', () => {
  it('splits lines and commas, trims trailing slashes and drops duplicates', () => {
    expect(parseOrigins('https://a.example/\nhttps://b.example, https://a.example\n\n')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });
});

describe('pinnedEmbedSnippet', () => {
  const scripts = [
    {
      file: 'wellrest-booking.js',
      versionedPath: '/widgets/wellrest-booking.0123456789.js',
      integrity: 'sha384-abc+/=',
    },
  ];

  it('gives the content-hashed script with its integrity and the same element', () => {
    const options = {
      widget: 'booking' as const,
      origin: 'https://wellrest.example',
      embedKey: 'wk_abc',
      theme: 'light' as const,
      accentColor: '',
    };
    const script = scriptFor('booking', scripts);
    expect(script).toBeDefined();
    expect(pinnedEmbedSnippet(options, script as (typeof scripts)[number])).toBe(
      '<script src="https://wellrest.example/widgets/wellrest-booking.0123456789.js" integrity="sha384-abc+/=" crossorigin="anonymous" defer></script>\n' +
        '<wellrest-booking api-base="https://wellrest.example" embed-key="wk_abc"></wellrest-booking>',
    );
    expect(scriptFor('signup', scripts)).toBeUndefined();
  });
});
