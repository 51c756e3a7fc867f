import type { RoutePattern } from '@wellrest/core';
import { type ComponentType, lazy } from 'react';
import { type Preloadable, preloadable } from '@/lib/preloadable';
import {
  firstScreenLoaders,
  ignoreFailure,
  loadDashboardPage,
  loadLoginPage,
  loadSignedInArea,
} from './firstScreen';
import { routeTitle } from './titles';

/*
 * Every page is its own chunk (React.lazy), so the first load carries only the shell.
 * A route without an entry here shows the placeholder of its area.
 */
type Page = ComponentType;

/** A lazy page from a module's named export (for modules holding several small pages). */
function named<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Page {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

// The screens a page load most often starts on: boot.ts asks for their code as the page loads,
// and they render without suspending once it is there.
const dashboardPage = preloadable(loadDashboardPage);
const loginPage = preloadable(loadLoginPage);

const PAGES: Partial<Record<RoutePattern, Page>> = {
  '/': dashboardPage,
  '/booking': lazy(() => import('@/features/bookings/BookingPage')),
  '/bookings-management': lazy(() => import('@/features/bookings/BookingsManagementPage')),
  '/bookings': lazy(() => import('@/features/bookings/BookingsManagementPage')),
  '/calendar': lazy(() => import('@/features/calendar/CalendarPage')),
  '/patients': lazy(() => import('@/features/patients/PatientsPage')),
  '/login': loginPage,
  '/register': lazy(() => import('@/features/auth/RegisterPage')),
  '/test-auth': lazy(() => import('@/features/auth/TestAuthPage')),
  '/profile': lazy(() => import('@/features/profile/ProfilePage')),
  '/admin/users': lazy(() => import('@/features/admin/AdminUsersPage')),
  '/admin/user-registrations': lazy(() => import('@/features/admin/UserRegistrationsPage')),
  '/admin/audit-logs': lazy(() => import('@/features/admin-compliance/AuditLogsPage')),
  '/admin/settings': lazy(() => import('@/features/admin-compliance/SettingsPage')),
  '/admin/hipaa': lazy(() => import('@/features/admin-compliance/HipaaPage')),
  '/admin/dashboard': lazy(() => import('@/features/admin-compliance/AdminDashboardPage')),
  '/webhook-logs': lazy(() => import('@/features/admin-compliance/WebhookLogsPage')),
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
  '/forms/templates': lazy(() => import('@/features/forms/TemplatesPage')),
  '/forms/builder/:id': lazy(() => import('@/features/forms/BuilderPage')),
  '/forms/submit/:id': lazy(() => import('@/features/forms/SubmitPage')),
  '/patient-form': lazy(() => import('@/features/forms/PatientFormPage')),
  '/templates': lazy(() => import('@/features/templates/TemplatesPage')),
  '/notifications': lazy(() => import('@/features/notifications/NotificationsPage')),
  '/workflows': lazy(() => import('@/features/workflows/WorkflowsPage')),
  '/workflow-builder': lazy(() => import('@/features/workflows/BuilderPage')),
  '/workflow-builder/:id': lazy(() => import('@/features/workflows/BuilderPage')),
  '/workflow-library': lazy(() => import('@/features/workflows/LibraryPage')),
  // The clinical pathway.
  '/physicians': lazy(() => import('@/features/clinical/PhysiciansPages')),
  '/physicians/register': named(() => import('@/features/clinical/PhysiciansPages'), 'RegisterPhysicianPage'),
  '/physicians/:id': named(() => import('@/features/clinical/PhysiciansPages'), 'PhysicianDetailPage'),
  '/referrals': lazy(() => import('@/features/clinical/ReferralsPage')),
  '/referrals/new': lazy(() => import('@/features/clinical/NewReferralPage')),
  '/referrals/physician/:id': named(
    () => import('@/features/clinical/ReferralsPage'),
    'PhysicianReferralsPage',
  ),
  '/physician-dashboard': lazy(() => import('@/features/clinical/PhysicianDashboardPage')),
  '/sla/dashboard': named(() => import('@/features/clinical/SlaPages'), 'SlaDashboardPage'),
  '/sla/definitions': lazy(() => import('@/features/clinical/SlaPages')),
  '/medical-director/dashboard': lazy(() => import('@/features/clinical/MedicalDirectorPages')),
  '/medical-director/test-assignment/:id': named(
    () => import('@/features/clinical/MedicalDirectorPages'),
    'TestAssignmentPage',
  ),
};

export const PlaceholderPage = lazy(() => import('@/components/PlaceholderPage'));
export const NotFoundPage = lazy(() => import('@/components/NotFoundPage'));
export const PrivacyPolicyPage = lazy(() => import('@/features/privacy/PrivacyPolicyPage'));
export const SetPasswordPage = lazy(() => import('@/features/auth/SetPasswordPage'));
/** The layout and the routes of the signed-in area (SignedInArea.tsx). */
export const SignedInArea = preloadable(loadSignedInArea);

const FIRST_SCREENS = new Map<() => Promise<unknown>, Pick<Preloadable<object>, 'preload'>>([
  [loadSignedInArea, SignedInArea],
  [loadDashboardPage, dashboardPage],
  [loadLoginPage, loginPage],
]);

let firstScreenLoading: Promise<unknown> = Promise.resolve();

/**
 * Hands the first screen's code, which boot.ts asked for, to the screen's component: once it is
 * there the screen renders without suspending.
 */
export function preloadFirstScreen(path: string): void {
  const loading = firstScreenLoaders(path).map((load) => FIRST_SCREENS.get(load)?.preload());
  for (const load of loading) load?.catch(ignoreFailure);
  firstScreenLoading = Promise.allSettled(loading);
}

/** Settles once the first screen's code has loaded (or failed to): what else loads waits for it. */
export function firstScreenLoaded(): Promise<unknown> {
  return firstScreenLoading;
}

/**
 * Starts loading the signed-in area's code (the layout, its primitives, the permission rules),
 * which the sign-in screen does not load: sent with the sign-in, it arrives while the server
 * checks the password instead of after.
 */
export function preloadSignedInArea(): void {
  SignedInArea.preload().catch(ignoreFailure);
}

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
