/**
 * The console's colour theme: light, dark, or following the operating system (the default).
 *
 * A signed-in user's choice is kept in a cookie of its own, `wr_theme_<user id>`, so two people
 * sharing a front-desk computer each keep theirs, and it outlives sign-out (which empties local
 * storage). `wr_theme_user` names the user who signed in last on this browser: the page's first,
 * inline script (THEME_BOOT_SCRIPT) reads both before the first paint, so the page never flashes in
 * the wrong theme. The script is inline so that it runs before anything is painted; the server
 * allows exactly this script by its hash in the Content-Security-Policy.
 */
export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

/** The class on `<html>` that turns the dark theme on (Tailwind's `dark:` variant keys on it). */
export const DARK_THEME_CLASS = 'dark';

/** Cookie naming the user who signed in last on this browser. */
export const THEME_USER_COOKIE = 'wr_theme_user';

/** Cookie holding one user's explicit choice ('light' or 'dark'; absent: follow the system). */
export function themeCookieName(userId: number): string {
  return `wr_theme_${userId}`;
}

/** The theme a preference resolves to, given whether the system asks for dark. */
export function resolveTheme(preference: ThemePreference, systemDark: boolean): 'light' | 'dark' {
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

/**
 * Runs inline in the page's head, before the first paint: applies the last signed-in user's
 * choice, else the system's. Kept small and ES5 so that it parses everywhere.
 */
export const THEME_BOOT_SCRIPT =
  "(function(){try{var c=document.cookie,u=/(?:^|; )wr_theme_user=(\\d+)/.exec(c),p=u&&new RegExp('(?:^|; )wr_theme_'+u[1]+'=(light|dark)').exec(c),d=p?p[1]==='dark':window.matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle('dark',d)}catch(e){}})();";
