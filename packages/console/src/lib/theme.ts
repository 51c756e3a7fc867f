import {
  DARK_THEME_CLASS,
  resolveTheme,
  THEME_PREFERENCES,
  THEME_USER_COOKIE,
  type ThemePreference,
  themeCookieName,
} from '@wellrest/core';
import { useCallback, useEffect, useState } from 'react';

const SYSTEM_DARK = '(prefers-color-scheme: dark)';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function readCookie(name: string): string | null {
  const match = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie);
  return match ? decodeURIComponent(match[1] ?? '') : null;
}

function writeCookie(name: string, value: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the console supports (Firefox, Safari before 18.4); the value is one word.
  document.cookie =
    value === null
      ? `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`
      : `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(SYSTEM_DARK).matches;
}

/** Puts the theme a preference resolves to on <html>. */
export function applyThemePreference(preference: ThemePreference): void {
  const dark = resolveTheme(preference, systemPrefersDark()) === 'dark';
  document.documentElement.classList.toggle(DARK_THEME_CLASS, dark);
}

/** A user's stored choice; 'system' when they have made none. */
export function readThemePreference(userId: number): ThemePreference {
  const stored = readCookie(themeCookieName(userId));
  return THEME_PREFERENCES.includes(stored as ThemePreference) ? (stored as ThemePreference) : 'system';
}

/** Keeps a user's choice ('system' forgets it) and marks them the browser's last signed-in user. */
export function storeThemePreference(userId: number, preference: ThemePreference): void {
  writeCookie(themeCookieName(userId), preference === 'system' ? null : preference);
  writeCookie(THEME_USER_COOKIE, String(userId));
}

/** After sign-out the sign-in page follows the system again, whoever signs in next. */
export function forgetThemeUser(): void {
  writeCookie(THEME_USER_COOKIE, null);
  applyThemePreference('system');
}

/**
 * The signed-in user's theme: applies it (and follows the system while the choice is 'system'),
 * and returns it with a setter that remembers the new choice for this user.
 */
export function useThemePreference(userId: number) {
  const [preference, setPreference] = useState<ThemePreference>(() => readThemePreference(userId));

  useEffect(() => {
    const stored = readThemePreference(userId);
    setPreference(stored);
    storeThemePreference(userId, stored);
  }, [userId]);

  useEffect(() => {
    applyThemePreference(preference);
    if (preference !== 'system' || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(SYSTEM_DARK);
    const follow = () => applyThemePreference('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [preference]);

  const choose = useCallback(
    (next: ThemePreference) => {
      storeThemePreference(userId, next);
      setPreference(next);
    },
    [userId],
  );

  return { preference, setPreference: choose };
}
