import type { ForcedSubject, MongoAbility } from '@casl/ability';
import { AbilityBuilder, createMongoAbility, subject as tagSubject } from '@casl/ability';
import type { Role } from '../enums.js';
import type { AuthenticatedRoute } from '../navigation/routes.js';
import { findRoute, isPublicRoute } from '../navigation/routes.js';

// The permission matrix (DESIGN.md §2): deny by default, one ability per signed-in user, shared by
// the API (which enforces it) and the console (which hides what the server would refuse).

export const ACTIONS = [
  'manage',
  'read',
  'create',
  'update',
  'delete',
  'extend',
  'reduce',
  'sync',
  'export',
  'assign',
  'sign',
] as const;
export type Action = (typeof ACTIONS)[number];

export const SUBJECTS = [
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
  'Workflow',
  'Form',
  'FormSubmission',
  'Notification',
  'WebhookLog',
  'Widget',
  'Sla',
  'Template',
  'Delivery',
  'Interpretation',
  'all',
] as const;
export type SubjectName = (typeof SUBJECTS)[number];

/** The record fields rules have conditions on, per subject type. */
interface ConditionFields {
  Patient: { physicianId?: number | null };
  Booking: { physicianId?: number | null };
  Referral: { physicianId?: number | null };
  Physician: { id?: number };
  Session: { userId?: number };
  FormSubmission: { physicianId?: number | null };
  Interpretation: { readerUserId?: number | null };
}
type Tagged<T extends Exclude<SubjectName, 'all'>> = ForcedSubject<T> &
  (T extends keyof ConditionFields ? ConditionFields[T] : Record<string, unknown>);

/** A subject type, or a record tagged with its type (see `subject`). */
export type Subject =
  | SubjectName
  | { [T in Exclude<SubjectName, 'all'>]: Tagged<T> }[Exclude<SubjectName, 'all'>];
export type AppAbility = MongoAbility<[Action, Subject]>;

export interface AbilityUser {
  readonly id: number;
  readonly role: Role;
  /** For a physician: the Physician record they are. Without one they see no patient data. */
  readonly physicianId?: number | null;
}

/** Tags a record with its subject type so conditions (e.g. physicianId) are checked against it. */
export function subject<T extends Exclude<SubjectName, 'all'>, R extends Record<PropertyKey, unknown>>(
  type: T,
  record: R,
): R & ForcedSubject<T> {
  return tagSubject(type, { ...record });
}

/** Operational work shared by medical directors, schedulers and staff. */
const OPERATIONAL_SUBJECTS = ['Patient', 'Booking', 'Kit', 'Physician', 'Referral', 'Agreement'] as const;
const OPERATIONAL_ROLES: readonly Role[] = ['medical_director', 'scheduler', 'staff'];

export function defineAbilityFor(user: AbilityUser | null): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  if (user === null) return build();

  // Everyone signed in: their own session and profile, and acknowledging the privacy notice.
  can(['read', 'update'], 'Session', { userId: user.id });
  can('create', 'PrivacyAcknowledgment');

  if (user.role === 'admin') {
    can('manage', 'all');
    return build();
  }

  if (OPERATIONAL_ROLES.includes(user.role)) {
    can(['read', 'create', 'update'], [...OPERATIONAL_SUBJECTS]);
    can(['extend', 'reduce'], 'Booking');
    can('read', ['Dashboard', 'Search']);
    can('sync', 'Ghl');
    can(['read', 'create', 'update'], 'Form');
    // Workflows message patients on their own: schedulers and the medical director build and run
    // them; staff see them and their run history.
    can('read', 'Workflow');
    if (user.role !== 'staff') can(['create', 'update', 'delete'], 'Workflow');
    // SLA targets are the administrator's; everyone who works referrals sees the clocks.
    can('read', 'Sla');
    // Interpretations: the medical director assigns readers and may read (and sign what is theirs).
    if (user.role === 'medical_director') {
      can(['read', 'assign'], 'Interpretation');
      can(['update', 'sign'], 'Interpretation', { readerUserId: user.id });
    }
    can(['read', 'create'], 'FormSubmission');
    can('read', ['Notification', 'WebhookLog', 'Widget']);
    can(['read', 'create', 'update'], 'Template');
    // The delivery log (recipients and rendered messages) is for schedulers, besides admins.
    if (user.role === 'scheduler') can(['read', 'update'], 'Delivery');
    return build();
  }

  if (user.role === 'technician') {
    can(['read', 'update'], ['Kit', 'Booking']);
    can('read', ['Dashboard', 'Search', 'Patient', 'Notification']);
    return build();
  }

  if (user.role === 'physician') {
    can('read', 'Search');
    const physicianId = user.physicianId;
    // No linked Physician record: nothing of patients'. (A null condition would match unowned rows.)
    if (typeof physicianId === 'number') {
      can('read', ['Patient', 'Referral', 'Booking', 'FormSubmission'], { physicianId });
      // Their own referrals only: the server sets the referring physician to them.
      can('create', 'Referral', { physicianId });
      can('read', 'Physician', { id: physicianId });
    }
    // A physician who reads studies sees, fills in and signs the tests assigned to them.
    can(['read', 'update', 'sign'], 'Interpretation', { readerUserId: user.id });
    return build();
  }

  return build();
}

/**
 * Which rows of `subjectType` the ability allows for `action`, for building a database query:
 * none, all, or those matching any of the conditions (each an equality map, e.g. { physicianId: 7 }).
 */
export type RecordScope =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'some'; readonly anyOf: readonly Record<string, unknown>[] };

export function recordScope(ability: AppAbility, action: Action, subjectType: SubjectName): RecordScope {
  const rules = ability.rulesFor(action, subjectType).filter((rule) => !rule.inverted);
  if (rules.length === 0) return { kind: 'none' };
  if (rules.some((rule) => rule.conditions === undefined)) return { kind: 'all' };
  return { kind: 'some', anyOf: rules.map((rule) => ({ ...rule.conditions })) };
}

type RouteRequirement =
  | { readonly can: readonly [Action, SubjectName] }
  | { readonly roles: readonly Role[] };

/**
 * What opening each authenticated page needs. Pages the sidebar limits to one role are limited to
 * that role (and admin); the rest need the permission their data needs.
 */
const ROUTE_REQUIREMENTS: Readonly<Record<AuthenticatedRoute, RouteRequirement>> = {
  '/': { can: ['read', 'Dashboard'] },
  '/calendar': { can: ['read', 'Booking'] },
  '/inventory': { can: ['read', 'Kit'] },
  '/patients': { can: ['read', 'Patient'] },
  '/workflows': { can: ['read', 'Workflow'] },
  '/workflow-builder': { can: ['update', 'Workflow'] },
  '/workflow-builder/:id': { can: ['update', 'Workflow'] },
  '/templates': { can: ['read', 'Template'] },
  '/notifications': { can: ['read', 'Notification'] },
  '/workflow-library': { can: ['read', 'Workflow'] },
  '/scanner-setup': { can: ['update', 'Kit'] },
  '/booking': { can: ['create', 'Booking'] },
  '/bookings': { can: ['read', 'Booking'] },
  '/bookings-management': { can: ['read', 'Booking'] },
  '/widget-embed': { can: ['read', 'Widget'] },
  '/physician-widget-embed': { can: ['read', 'Widget'] },
  '/physician-signup-widget-embed': { can: ['read', 'Widget'] },
  '/profile': { can: ['read', 'Session'] },
  '/admin/dashboard': { roles: ['admin'] },
  '/admin/users': { can: ['manage', 'User'] },
  '/admin/user-registrations': { can: ['manage', 'Registration'] },
  '/admin/audit-logs': { can: ['read', 'AuditLog'] },
  '/admin/settings': { can: ['manage', 'Setting'] },
  '/admin/hipaa': { can: ['read', 'AuditLog'] },
  '/consents': { can: ['read', 'PrivacyAcknowledgment'] },
  '/physicians': { can: ['read', 'Physician'] },
  '/physicians/register': { can: ['create', 'Physician'] },
  '/physicians/:id': { can: ['read', 'Physician'] },
  '/referrals': { can: ['read', 'Referral'] },
  '/referrals/new': { can: ['create', 'Referral'] },
  '/referrals/physician/:id': { can: ['read', 'Referral'] },
  '/physician-dashboard': { can: ['read', 'Referral'] },
  '/sla/dashboard': { can: ['read', 'Sla'] },
  '/sla/definitions': { can: ['read', 'Sla'] },
  '/test-auth': { can: ['read', 'Session'] },
  '/simple-kit-stats': { can: ['read', 'Kit'] },
  '/medical-director/dashboard': { roles: ['medical_director', 'admin'] },
  '/medical-director/test-assignment/:id': { can: ['read', 'Interpretation'] },
  '/scheduler/kanban-dashboard': { roles: ['scheduler', 'admin'] },
  '/webhook-logs': { can: ['read', 'WebhookLog'] },
  '/forms/templates': { can: ['read', 'Form'] },
  '/forms/builder/:id': { can: ['update', 'Form'] },
  '/forms/submit/:id': { can: ['read', 'Form'] },
};

/**
 * May this user open `path`? Public pages: anyone. Authenticated pages: by ROUTE_REQUIREMENTS.
 * Unknown paths: no (they show the not-found page). Given only a role, a physician is assumed to
 * be linked to a Physician record, since the question is about the page, not a particular row.
 */
export function canAccessRoute(who: Role | AbilityUser | null, path: string): boolean {
  const route = findRoute(path);
  if (route === null) return false;
  if (isPublicRoute(path)) return true;
  if (who === null) return false;
  const user: AbilityUser = typeof who === 'string' ? { id: 0, role: who, physicianId: 0 } : who;
  const requirement = ROUTE_REQUIREMENTS[route as AuthenticatedRoute];
  if ('roles' in requirement) return requirement.roles.includes(user.role);
  const [action, subjectType] = requirement.can;
  return defineAbilityFor(user).can(action, subjectType);
}
