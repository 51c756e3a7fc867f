import { describe, expect, it } from 'vitest';
import type { Role } from '../enums.js';
import { ROLES } from '../enums.js';
import { AUTHENTICATED_ROUTES, PUBLIC_ROUTES } from '../navigation/routes.js';
import type { Action, SubjectName } from './ability.js';
import { canAccessRoute, defineAbilityFor, recordScope, subject } from './ability.js';

const user = (role: Role, extra: { physicianId?: number | null } = {}) => ({ id: 10, role, ...extra });

/** Every (action, subject) a role may perform on subject types, as 'action:Subject' strings. */
function matrix(role: Role): string[] {
  const ability = defineAbilityFor(user(role, { physicianId: 4 }));
  const actions: Action[] = ['read', 'create', 'update', 'delete', 'extend', 'reduce', 'sync', 'export'];
  const subjects: SubjectName[] = [
    'Patient',
    'Booking',
    'Kit',
    'Dashboard',
    'Search',
    'Physician',
    'Referral',
    'User',
    'Registration',
    'Setting',
    'AuditLog',
    'PrivacyAcknowledgment',
    'Ghl',
    'Agreement',
    'Session',
  ];
  return subjects.flatMap((s) => actions.filter((a) => ability.can(a, s)).map((a) => `${a}:${s}`));
}

describe('defineAbilityFor', () => {
  it('denies everything to nobody', () => {
    const ability = defineAbilityFor(null);
    expect(ability.can('read', 'Patient')).toBe(false);
    expect(ability.can('read', 'Session')).toBe(false);
    expect(ability.rules).toEqual([]);
  });

  it('lets admin manage everything', () => {
    const ability = defineAbilityFor(user('admin'));
    expect(ability.can('manage', 'all')).toBe(true);
    expect(ability.can('delete', 'User')).toBe(true);
    expect(ability.can('read', 'AuditLog')).toBe(true);
    expect(ability.can('update', 'Setting')).toBe(true);
    expect(ability.can('export', 'AuditLog')).toBe(true);
  });

  const operational = [
    'read:Patient',
    'create:Patient',
    'update:Patient',
    'read:Booking',
    'create:Booking',
    'update:Booking',
    'extend:Booking',
    'reduce:Booking',
    'read:Kit',
    'create:Kit',
    'update:Kit',
    'read:Dashboard',
    'read:Search',
    'read:Physician',
    'create:Physician',
    'update:Physician',
    'read:Referral',
    'create:Referral',
    'update:Referral',
    'create:PrivacyAcknowledgment',
    'sync:Ghl',
    'read:Agreement',
    'create:Agreement',
    'update:Agreement',
    'read:Session',
    'update:Session',
  ];

  it.each(['medical_director', 'scheduler', 'staff'] as const)(
    'gives %s the operational matrix and no administration',
    (role) => {
      expect(matrix(role)).toEqual(operational);
    },
  );

  it('gives technicians kits, bookings, the dashboard, search and reading patients', () => {
    expect(matrix('technician')).toEqual([
      'read:Patient',
      'read:Booking',
      'update:Booking',
      'read:Kit',
      'update:Kit',
      'read:Dashboard',
      'read:Search',
      'create:PrivacyAcknowledgment',
      'read:Session',
      'update:Session',
    ]);
  });

  it('gives physicians reading only, of what is theirs, and referring their own patients', () => {
    expect(matrix('physician')).toEqual([
      'read:Patient',
      'read:Booking',
      'read:Search',
      'read:Physician',
      'read:Referral',
      'create:Referral',
      'create:PrivacyAcknowledgment',
      'read:Session',
      'update:Session',
    ]);
    const ability = defineAbilityFor(user('physician', { physicianId: 4 }));
    expect(ability.can('read', subject('Patient', { id: 1, physicianId: 4 }))).toBe(true);
    expect(ability.can('read', subject('Patient', { id: 2, physicianId: 5 }))).toBe(false);
    expect(ability.can('read', subject('Patient', { id: 3, physicianId: null }))).toBe(false);
    expect(ability.can('read', subject('Referral', { id: 1, physicianId: 4 }))).toBe(true);
    expect(ability.can('read', subject('Referral', { id: 1, physicianId: 9 }))).toBe(false);
    expect(ability.can('read', subject('Booking', { id: 1, physicianId: 4 }))).toBe(true);
    expect(ability.can('update', subject('Booking', { id: 1, physicianId: 4 }))).toBe(false);
    expect(ability.can('read', subject('Physician', { id: 4 }))).toBe(true);
    expect(ability.can('read', subject('Physician', { id: 5 }))).toBe(false);
    expect(ability.can('create', subject('Referral', { physicianId: 4 }))).toBe(true);
    expect(ability.can('create', subject('Referral', { physicianId: 5 }))).toBe(false);
    // Reading studies: only those assigned to them; never assigning.
    expect(ability.can('sign', subject('Interpretation', { readerUserId: 10 }))).toBe(true);
    expect(ability.can('sign', subject('Interpretation', { readerUserId: 11 }))).toBe(false);
    expect(ability.can('assign', 'Interpretation')).toBe(false);
    expect(ability.can('read', 'Sla')).toBe(false);
  });

  it('lets only the medical director (and admin) assign readers, and only the reader sign', () => {
    const director = defineAbilityFor(user('medical_director'));
    expect(director.can('assign', 'Interpretation')).toBe(true);
    expect(director.can('sign', subject('Interpretation', { readerUserId: 10 }))).toBe(true);
    expect(director.can('sign', subject('Interpretation', { readerUserId: 12 }))).toBe(false);
    for (const role of ['scheduler', 'staff', 'technician'] as const) {
      expect(defineAbilityFor(user(role)).can('assign', 'Interpretation'), role).toBe(false);
      expect(defineAbilityFor(user(role)).can('update', 'Sla'), role).toBe(false);
    }
    expect(defineAbilityFor(user('scheduler')).can('read', 'Sla')).toBe(true);
    expect(defineAbilityFor(user('admin')).can('update', 'Sla')).toBe(true);
  });

  it('gives a physician with no linked record no patient data at all', () => {
    const ability = defineAbilityFor(user('physician', { physicianId: null }));
    expect(ability.can('read', subject('Patient', { id: 3, physicianId: null }))).toBe(false);
    expect(ability.can('read', 'Patient')).toBe(false);
    expect(ability.can('read', 'Search')).toBe(true);
  });

  it('lets everyone signed in read and update their own session only', () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const ability = defineAbilityFor(user(role));
      expect(ability.can('update', subject('Session', { userId: 10 }))).toBe(true);
      expect(ability.can('update', subject('Session', { userId: 11 }))).toBe(false);
      expect(ability.can('create', 'PrivacyAcknowledgment')).toBe(true);
      expect(ability.can('read', 'User')).toBe(false);
      expect(ability.can('read', 'AuditLog')).toBe(false);
      expect(ability.can('update', 'Setting')).toBe(false);
      expect(ability.can('delete', 'Patient')).toBe(false);
    }
  });
});

describe('recordScope', () => {
  it('says which rows a query may return', () => {
    expect(recordScope(defineAbilityFor(user('staff')), 'read', 'Patient')).toEqual({ kind: 'all' });
    expect(recordScope(defineAbilityFor(user('admin')), 'delete', 'Patient')).toEqual({ kind: 'all' });
    expect(recordScope(defineAbilityFor(user('technician')), 'update', 'Patient')).toEqual({ kind: 'none' });
    expect(recordScope(defineAbilityFor(user('physician', { physicianId: 4 })), 'read', 'Referral')).toEqual({
      kind: 'some',
      anyOf: [{ physicianId: 4 }],
    });
    expect(recordScope(defineAbilityFor(user('physician')), 'read', 'Referral')).toEqual({ kind: 'none' });
    expect(recordScope(defineAbilityFor(null), 'read', 'Booking')).toEqual({ kind: 'none' });
  });
});

describe('canAccessRoute', () => {
  it('opens public pages to everyone, signed in or not', () => {
    for (const route of PUBLIC_ROUTES) {
      expect(canAccessRoute(null, route)).toBe(true);
      expect(canAccessRoute('technician', route)).toBe(true);
    }
  });

  it('closes every authenticated page to visitors and unknown paths to all', () => {
    for (const route of AUTHENTICATED_ROUTES)
      expect(canAccessRoute(null, route.replace(':id', '1'))).toBe(false);
    expect(canAccessRoute('admin', '/no-such-page')).toBe(false);
  });

  it('opens every page to admin', () => {
    for (const route of AUTHENTICATED_ROUTES)
      expect(canAccessRoute('admin', route.replace(':id', '7'))).toBe(true);
  });

  it('limits the role groups of the sidebar to their roles', () => {
    expect(canAccessRoute('medical_director', '/medical-director/dashboard')).toBe(true);
    expect(canAccessRoute('medical_director', '/medical-director/test-assignment/5')).toBe(true);
    expect(canAccessRoute('scheduler', '/medical-director/dashboard')).toBe(false);
    expect(canAccessRoute('scheduler', '/scheduler/kanban-dashboard')).toBe(true);
    expect(canAccessRoute('staff', '/scheduler/kanban-dashboard')).toBe(false);
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(canAccessRoute(role, '/admin/users')).toBe(false);
      expect(canAccessRoute(role, '/admin/settings')).toBe(false);
      expect(canAccessRoute(role, '/profile')).toBe(true);
    }
  });

  it('follows the permissions for the rest', () => {
    expect(canAccessRoute('staff', '/')).toBe(true);
    expect(canAccessRoute('staff', '/patients')).toBe(true);
    expect(canAccessRoute('technician', '/inventory')).toBe(true);
    expect(canAccessRoute('technician', '/scanner-setup')).toBe(true);
    expect(canAccessRoute('technician', '/physicians')).toBe(false);
    expect(canAccessRoute('physician', '/physician-dashboard')).toBe(true);
    expect(canAccessRoute('physician', '/patients')).toBe(true);
    expect(canAccessRoute('physician', '/')).toBe(false);
    expect(canAccessRoute('physician', '/inventory')).toBe(false);
    expect(canAccessRoute({ id: 3, role: 'physician', physicianId: null }, '/patients')).toBe(false);
  });

  it('reads the path only, not its query or hash', () => {
    expect(canAccessRoute('staff', '/bookings-management?booking=5')).toBe(true);
    expect(canAccessRoute('staff', '/patients#patient-4')).toBe(true);
    expect(canAccessRoute('staff', '/physicians/register')).toBe(true);
  });
});
