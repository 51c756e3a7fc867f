import { describe, expect, it } from 'vitest';
import { resolveTheme, THEME_BOOT_SCRIPT, themeCookieName } from './index.js';
import { shellMessages } from './messages.js';

/** Runs the boot script against a stand-in document and window; returns whether it chose dark. */
function bootWith(cookie: string, systemDark: boolean): boolean {
  const classes = new Set<string>();
  const document = {
    cookie,
    documentElement: {
      classList: { toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name)) },
    },
  };
  const window = { matchMedia: () => ({ matches: systemDark }) };
  new Function('document', 'window', THEME_BOOT_SCRIPT)(document, window);
  return classes.has('dark');
}

describe('colour theme', () => {
  it('resolves a preference against the system', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it("applies the last signed-in user's choice before the first paint, else the system's", () => {
    expect(bootWith('', true)).toBe(true);
    expect(bootWith('', false)).toBe(false);
    expect(bootWith(`wr_theme_user=7; ${themeCookieName(7)}=light`, true)).toBe(false);
    expect(bootWith(`a=b; wr_theme_user=7; ${themeCookieName(7)}=dark`, false)).toBe(true);
    // Another user's choice on the same browser is not theirs.
    expect(bootWith(`wr_theme_user=8; ${themeCookieName(7)}=dark`, false)).toBe(false);
    expect(bootWith(`wr_theme_user=17; ${themeCookieName(7)}=dark`, false)).toBe(false);
  });

  it('titles documents "Page · Wellrest"', () => {
    expect(shellMessages.documentTitle('Bookings')).toBe('Bookings \u00b7 Wellrest');
    expect(shellMessages.documentTitle('')).toBe('Wellrest');
  });
});
