import { NAVIGATION, type RoutePattern } from '@wellrest/core';

/** Titles of routes that are not in the sidebar. Sidebar routes take their title from NAVIGATION. */
const OTHER_TITLES: Partial<Record<RoutePattern, string>> = {
  '/widget': 'Booking Widget',
  '/physician-widget': 'Physician Referral Widget',
  '/physician-signup-widget': 'Physician Signup Widget',
  '/agreement-form': 'Agreement Form',
  '/agreement-success': 'Agreement Signed',
  '/dropoff-form': 'Drop-off Form',
  '/dropoff-success': 'Drop-off Recorded',
  '/patient-form': 'Patient Form',
  '/login': 'Sign In',
  '/register': 'Request Access',
  '/simple-test': 'Connection Test',
  '/workflow-builder': 'Workflow Builder',
  '/workflow-builder/:id': 'Workflow Builder',
  '/booking': 'New Booking',
  '/bookings-management': 'Bookings Management',
  '/profile': 'Profile',
  '/consents': 'Consents',
  '/physicians/register': 'Register Physician',
  '/physicians/:id': 'Physician',
  '/referrals/new': 'New Referral',
  '/referrals/physician/:id': 'Physician Referrals',
  '/physician-dashboard': 'Physician Dashboard',
  '/sla/definitions': 'SLA Definitions',
  '/test-auth': 'Authentication Status',
  '/simple-kit-stats': 'Kit Statistics',
  '/medical-director/test-assignment/:id': 'Test Assignment',
  '/forms/builder/:id': 'Form Builder',
  '/forms/submit/:id': 'Form Submission',
};

const NAV_TITLES = new Map<string, string>();
for (const group of NAVIGATION) {
  if (group.href) NAV_TITLES.set(group.href, group.title);
  for (const item of group.children ?? []) NAV_TITLES.set(item.href, item.title);
}

/** The title of a route pattern, as pages and the header show it. */
export function routeTitle(pattern: RoutePattern | string): string {
  return OTHER_TITLES[pattern as RoutePattern] ?? NAV_TITLES.get(pattern) ?? pattern;
}
