import type { RoutePattern } from '@wellrest/core';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { routeTitle } from './titles';

/*
 * Every page is its own chunk (React.lazy), so the first load carries only the shell.
 * A route without an entry here shows the placeholder of its area.
 */
type Page = LazyExoticComponent<ComponentType>;

const PAGES: Partial<Record<RoutePattern, Page>> = {
  '/login': lazy(() => import('@/features/auth/LoginPage')),
  '/register': lazy(() => import('@/features/auth/RegisterPage')),
  '/test-auth': lazy(() => import('@/features/auth/TestAuthPage')),
  '/profile': lazy(() => import('@/features/profile/ProfilePage')),
  '/admin/users': lazy(() => import('@/features/admin/AdminUsersPage')),
  '/admin/user-registrations': lazy(() => import('@/features/admin/UserRegistrationsPage')),
};

export const PlaceholderPage = lazy(() => import('@/components/PlaceholderPage'));
export const NotFoundPage = lazy(() => import('@/components/NotFoundPage'));
export const PrivacyPolicyPage = lazy(() => import('@/features/privacy/PrivacyPolicyPage'));
export const AppLayout = lazy(() => import('@/components/layout/AppLayout'));

/** Renders the page of a route pattern, or the placeholder of its area. */
export function RoutePage({ pattern, standalone = false }: { pattern: RoutePattern; standalone?: boolean }) {
  const Page = PAGES[pattern];
  if (Page) return <Page />;
  return <PlaceholderPage title={routeTitle(pattern)} standalone={standalone} />;
}

/** True when the route has its real page (not the placeholder). */
export function hasPage(pattern: RoutePattern): boolean {
  return PAGES[pattern] !== undefined;
}
