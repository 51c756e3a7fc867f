import { findRoute, isPublicRoute, LOGIN_ROUTE } from '@wellrest/core';

/*
 * The screens a page load most often starts on, and what a page load needs before its first
 * screen can draw. No React here: `boot.ts` runs this while the console's own code is still
 * downloading.
 */

export const loadDashboardPage = () => import('@/features/dashboard/DashboardPage');
export const loadLoginPage = () => import('@/features/auth/LoginPage');
/** The layout with the signed-in area's routes (SignedInArea.tsx). */
export const loadSignedInArea = () => import('@/routes/SignedInArea');

/**
 * True when the path is drawn inside the signed-in area, which checks the session before anything
 * else: a known route that is not public (the privacy policy and set-password pages are no routes
 * of the table). App.tsx shows the not-found page for any other path that reaches that area.
 */
export function inSignedInArea(path: string): boolean {
  return findRoute(path) !== null && !isPublicRoute(path);
}

/** The code the screen a page load starts on needs, when it is one of those above. */
export function firstScreenLoaders(path: string): (() => Promise<unknown>)[] {
  if (path === LOGIN_ROUTE) return [loadLoginPage];
  if (path === '/') return [loadSignedInArea, loadDashboardPage];
  return inSignedInArea(path) ? [loadSignedInArea] : [];
}

/** Ignores a failed preload: the screen's own render retries it and shows the error if any. */
export function ignoreFailure(): void {}
