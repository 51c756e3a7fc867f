import type { RoutePattern } from '@wellrest/core';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { routeTitle } from './titles';

/*
 * Every page is its own chunk (React.lazy), so the first load carries only the shell.
 * A route without an entry here shows the placeholder of its area.
 */
type Page = LazyExoticComponent<ComponentType>;

/** A lazy page from a module's named export (for modules holding several small pages). */
function named<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Page {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const PAGES: Partial<Record<RoutePattern, Page>> = {
  '/': lazy(() => import('@/features/dashboard/DashboardPage')),
  '/booking': lazy(() => import('@/features/bookings/BookingPage')),
  '/bookings-management': lazy(() => import('@/features/bookings/BookingsManagementPage')),
  '/bookings': lazy(() => import('@/features/bookings/BookingsManagementPage')),
  '/calendar': lazy(() => import('@/features/calendar/CalendarPage')),
  '/patients': lazy(() => import('@/features/patients/PatientsPage')),
  '/login': lazy(() => import('@/features/auth/LoginPage')),
  '/register': lazy(() => import('@/features/auth/RegisterPage')),
  '/test-auth': lazy(() => import('@/features/auth/TestAuthPage')),
  '/profile': lazy(() => import('@/features/profile/ProfilePage')),
  '/admin/users': lazy(() => import('@/features/admin/AdminUsersPage')),
  '/admin/user-registrations': lazy(() => import('@/features/admin/UserRegistrationsPage')),
  // Public forms and widgets (no sign-in) and the pages that manage them.
  '/widget': named(() => import('@/features/public-forms/WidgetPages'), 'BookingWidgetPage'),
  '/physician-widget': named(
    () => import('@/features/public-forms/WidgetPages'),
    'PhysicianReferralWidgetPage',
  ),
  '/physician-signup-widget': named(
    () => import('@/features/public-forms/WidgetPages'),
    'PhysicianSignupWidgetPage',
  ),
  '/agreement-form': lazy(() => import('@/features/public-forms/AgreementFormPage')),
  '/agreement-success': named(
    () => import('@/features/public-forms/AgreementFormPage'),
    'AgreementSuccessPage',
  ),
  '/dropoff-form': lazy(() => import('@/features/public-forms/DropoffFormPage')),
  '/dropoff-success': named(() => import('@/features/public-forms/DropoffFormPage'), 'DropoffSuccessPage'),
  '/simple-test': lazy(() => import('@/features/diagnostics/SimpleTestPage')),
  '/widget-embed': named(() => import('@/features/embed/EmbedPage'), 'BookingEmbedPage'),
  '/physician-widget-embed': named(() => import('@/features/embed/EmbedPage'), 'ReferralEmbedPage'),
  '/physician-signup-widget-embed': named(() => import('@/features/embed/EmbedPage'), 'SignupEmbedPage'),
  '/consents': lazy(() => import('@/features/consents/ConsentsPage')),
  '/inventory': lazy(() => import('@/features/inventory/InventoryPage')),
  '/scanner-setup': lazy(() => import('@/features/scanning/ScannerSetupPage')),
  '/simple-kit-stats': lazy(() => import('@/features/kit-stats/KitStatsPage')),
  '/scheduler/kanban-dashboard': lazy(() => import('@/features/kanban/KanbanPage')),
};

export const PlaceholderPage = lazy(() => import('@/components/PlaceholderPage'));
export const NotFoundPage = lazy(() => import('@/components/NotFoundPage'));
export const PrivacyPolicyPage = lazy(() => import('@/features/privacy/PrivacyPolicyPage'));
export const SetPasswordPage = lazy(() => import('@/features/auth/SetPasswordPage'));
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
