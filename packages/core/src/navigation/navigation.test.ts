import { describe, expect, it } from 'vitest';
import type { Role } from '../enums.js';
import { ROLES } from '../enums.js';
import { formatRole, isActiveHref, isGroupActive, NAVIGATION, navigationFor } from './navigation.js';
import { findRoute } from './routes.js';

const titles = (role: Role | null) => navigationFor(role).map((g) => g.title);
const everyone = ['Dashboard', 'Operations', 'Automation', 'Physician Portal', 'Tools & Settings'];

describe('NAVIGATION', () => {
  it('is the sidebar of spec §2', () => {
    expect(
      NAVIGATION.map((g) => [g.title, g.href ?? null, (g.children ?? []).map((c) => `${c.title} ${c.href}`)]),
    ).toEqual([
      ['Dashboard', '/', []],
      [
        'Operations',
        null,
        [
          'Calendar /calendar',
          'Inventory /inventory',
          'Patients /patients',
          'Bookings /bookings',
          'E-Forms /forms/templates',
          'Webhook Logs /webhook-logs',
        ],
      ],
      [
        'Automation',
        null,
        [
          'Workflows /workflows',
          'Templates /templates',
          'Library /workflow-library',
          'Notifications /notifications',
        ],
      ],
      ['Medical Director', null, ['Director Dashboard /medical-director/dashboard']],
      ['Scheduler', null, ['Kanban Dashboard /scheduler/kanban-dashboard']],
      [
        'Physician Portal',
        null,
        ['Physicians /physicians', 'Referrals /referrals', 'SLA Tracking /sla/dashboard'],
      ],
      [
        'Tools & Settings',
        null,
        [
          'Scanner Setup /scanner-setup',
          'Widget Embed /widget-embed',
          'Physician Widget /physician-widget-embed',
          'Signup Widget /physician-signup-widget-embed',
        ],
      ],
      [
        'Administration',
        null,
        [
          'Admin Dashboard /admin/dashboard',
          'Users /admin/users',
          'User Registrations /admin/user-registrations',
          'Audit Logs /admin/audit-logs',
          'HIPAA Compliance /admin/hipaa',
          'Settings /admin/settings',
        ],
      ],
    ]);
  });

  it('opens Operations by default and limits the role groups', () => {
    expect(NAVIGATION.filter((g) => g.defaultOpen).map((g) => g.title)).toEqual(['Operations']);
    expect(
      Object.fromEntries(NAVIGATION.filter((g) => g.requiredRole).map((g) => [g.title, g.requiredRole])),
    ).toEqual({
      'Medical Director': ['medical_director'],
      Scheduler: ['scheduler'],
      Administration: ['admin'],
    });
  });

  it('links only to real authenticated routes', () => {
    for (const group of NAVIGATION) {
      for (const href of [group.href, ...(group.children ?? []).map((c) => c.href)]) {
        if (href !== undefined) expect(findRoute(href)).toBe(href);
      }
    }
  });
});

describe('navigationFor', () => {
  it.each([
    ['admin', [...everyone, 'Administration']],
    ['medical_director', [...everyone.slice(0, 3), 'Medical Director', ...everyone.slice(3)]],
    ['scheduler', [...everyone.slice(0, 3), 'Scheduler', ...everyone.slice(3)]],
    ['physician', everyone],
    ['staff', everyone],
    ['technician', everyone],
  ] as const)('shows %s its groups', (role, expected) => {
    expect(titles(role)).toEqual(expected);
  });

  it('shows nobody the role groups when no one is signed in', () => {
    expect(titles(null)).toEqual(everyone);
  });

  it('keeps every role-free group whole', () => {
    for (const role of ROLES) {
      const ops = navigationFor(role).find((g) => g.title === 'Operations');
      expect(ops?.children).toHaveLength(6);
    }
  });
});

describe('active links', () => {
  it("matches '/' only on the dashboard and other links on their sub-paths", () => {
    expect(isActiveHref('/', '/')).toBe(true);
    expect(isActiveHref('/', '/patients')).toBe(false);
    expect(isActiveHref('/physicians', '/physicians/7')).toBe(true);
    expect(isActiveHref('/physicians', '/physicians-other')).toBe(false);
    expect(isActiveHref('/patients', '/patients#patient-4')).toBe(true);
  });

  it('highlights the group of the current route', () => {
    const portal = NAVIGATION.find((g) => g.title === 'Physician Portal');
    const dashboard = NAVIGATION.find((g) => g.title === 'Dashboard');
    if (!portal || !dashboard) throw new Error('groups missing');
    expect(isGroupActive(portal, '/referrals/new')).toBe(true);
    expect(isGroupActive(portal, '/calendar')).toBe(false);
    expect(isGroupActive(dashboard, '/')).toBe(true);
  });

  it('shows roles with spaces for underscores', () => {
    expect(formatRole('medical_director')).toBe('medical director');
    expect(formatRole('admin')).toBe('admin');
  });
});
