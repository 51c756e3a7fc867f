import type { SearchResultType } from '../enums.js';

// Route paths of spec §2. Path parameters are written ':id'.

export const PUBLIC_ROUTES = [
  '/widget',
  '/physician-widget',
  '/physician-signup-widget',
  '/agreement-form',
  '/agreement-success',
  '/dropoff-form',
  '/dropoff-success',
  /** A questionnaire a patient fills in from an emailed or texted link (?token=…). */
  '/patient-form',
  '/login',
  '/register',
  '/simple-test',
] as const;

export const AUTHENTICATED_ROUTES = [
  '/',
  '/calendar',
  '/inventory',
  '/patients',
  '/workflows',
  '/workflow-builder',
  '/workflow-builder/:id',
  '/templates',
  '/notifications',
  '/workflow-library',
  '/scanner-setup',
  '/booking',
  '/bookings',
  '/bookings-management',
  '/widget-embed',
  '/physician-widget-embed',
  '/physician-signup-widget-embed',
  '/profile',
  '/admin/dashboard',
  '/admin/users',
  '/admin/user-registrations',
  '/admin/audit-logs',
  '/admin/settings',
  '/admin/hipaa',
  '/consents',
  '/physicians',
  '/physicians/register',
  '/physicians/:id',
  '/referrals',
  '/referrals/new',
  '/referrals/physician/:id',
  '/physician-dashboard',
  '/sla/dashboard',
  '/sla/definitions',
  '/test-auth',
  '/simple-kit-stats',
  '/medical-director/dashboard',
  '/medical-director/test-assignment/:id',
  '/scheduler/kanban-dashboard',
  '/webhook-logs',
  '/forms/templates',
  '/forms/builder/:id',
  '/forms/submit/:id',
] as const;

export type PublicRoute = (typeof PUBLIC_ROUTES)[number];
export type AuthenticatedRoute = (typeof AUTHENTICATED_ROUTES)[number];
export type RoutePattern = PublicRoute | AuthenticatedRoute;

/** Every route of the product, public first. */
export const ROUTES: readonly RoutePattern[] = [...PUBLIC_ROUTES, ...AUTHENTICATED_ROUTES];

export const LOGIN_ROUTE = '/login' satisfies PublicRoute;
/** The page a set-password link opens (outside the route table: it stands alone, signed in or not). */
export const SET_PASSWORD_PATH = '/set-password';
export const HOME_ROUTE = '/' satisfies AuthenticatedRoute;
export const PHYSICIAN_HOME_ROUTE = '/physician-dashboard' satisfies AuthenticatedRoute;

/** Where a user lands after signing in: a physician on the physician dashboard, anyone else on /. */
export function homeRouteFor(role: string): string {
  return role === 'physician' ? PHYSICIAN_HOME_ROUTE : HOME_ROUTE;
}

/** The pathname of a path, without query string, hash or trailing slash. */
function pathnameOf(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname || '/';
}

/** The parameters of `path` if it matches `pattern` (e.g. '/physicians/:id'), else null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = pathnameOf(path).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return null;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) {
      return null;
    }
  }
  return params;
}

/** The route pattern `path` belongs to, or null for a path that shows the not-found page. */
export function findRoute(path: string): RoutePattern | null {
  // Literal patterns first, so '/physicians/register' is not read as '/physicians/:id'.
  const literal = ROUTES.find((r) => !r.includes(':') && matchRoute(r, path));
  return literal ?? ROUTES.find((r) => matchRoute(r, path) !== null) ?? null;
}

export function isPublicRoute(path: string): boolean {
  const route = findRoute(path);
  return route !== null && (PUBLIC_ROUTES as readonly string[]).includes(route);
}

/** A concrete path from a pattern: buildPath('/physicians/:id', { id: 7 }) is '/physicians/7'. */
export function buildPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing route parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** HTTP API paths of spec §7, shared by the console, the widgets and the API. */
export const API_PATHS = {
  authMe: '/api/auth/me',
  authLogin: '/api/auth/login',
  authLogout: '/api/auth/logout',
  search: '/api/search',
  privacyCheck: '/api/privacy-acknowledgment/check',
  privacyAcknowledge: '/api/privacy-acknowledgment',
  patients: '/api/patients',
  kits: '/api/sleep-test-kits',
  bookings: '/api/bookings',
  dashboardStats: '/api/dashboard/stats',
  dailyAvailability: '/api/dashboard/daily-availability',
  ghlSync: '/api/ghl/sync',
  ghlReport: '/api/ghl/report',
  ghlResolve: (issueId: number): string => `/api/ghl/issues/${issueId}/resolve`,
  initiateAgreement: (bookingId: number): string => `/api/bookings/${bookingId}/initiate-agreement`,
  extendBooking: (bookingId: number): string => `/api/bookings/${bookingId}/extend`,
  reduceBooking: (bookingId: number): string => `/api/bookings/${bookingId}/reduce`,
  extensionEligibility: (bookingId: number): string => `/api/bookings/${bookingId}/extension-eligibility`,
  reductionEligibility: (bookingId: number): string => `/api/bookings/${bookingId}/reduction-eligibility`,
} as const;

/** Where choosing a search result goes (DESIGN.md §2). */
export function searchResultUrl(type: SearchResultType, id: number): string {
  switch (type) {
    case 'patient':
      return `/patients#patient-${id}`;
    case 'booking':
      return `/bookings-management?booking=${id}`;
    case 'physician':
      return `/physicians/${id}`;
    case 'referral':
      return `/referrals?referral=${id}`;
  }
}
