import type { Role } from '../enums.js';

/** Icon names from the lucide icon set; the console maps them to components. */
export type NavIcon =
  | 'LayoutDashboard'
  | 'Briefcase'
  | 'Calendar'
  | 'Package'
  | 'Users'
  | 'ClipboardList'
  | 'FileText'
  | 'Webhook'
  | 'Workflow'
  | 'GitBranch'
  | 'LayoutTemplate'
  | 'Library'
  | 'Bell'
  | 'Stethoscope'
  | 'KanbanSquare'
  | 'UserRound'
  | 'Send'
  | 'Timer'
  | 'Wrench'
  | 'ScanLine'
  | 'Code'
  | 'UserPlus'
  | 'Shield'
  | 'ShieldCheck'
  | 'UserCog'
  | 'ScrollText'
  | 'Settings'
  | 'CalendarClock';

export interface NavItem {
  readonly title: string;
  readonly href: string;
  readonly icon?: NavIcon;
  /** Only these roles see the item; absent means everyone signed in. */
  readonly requiredRole?: readonly Role[];
}

export interface NavGroup {
  readonly title: string;
  /** A single link (Dashboard) has an href and no children. */
  readonly href?: string;
  readonly icon?: NavIcon;
  readonly children?: readonly NavItem[];
  readonly defaultOpen?: boolean;
  /** Only these roles see the group; absent means everyone signed in. */
  readonly requiredRole?: readonly Role[];
}

/** The sidebar of spec §2. /profile is reached from the user footer, not from here. */
export const NAVIGATION: readonly NavGroup[] = [
  { title: 'Dashboard', href: '/', icon: 'LayoutDashboard' },
  {
    title: 'Operations',
    icon: 'Briefcase',
    defaultOpen: true,
    children: [
      { title: 'Calendar', href: '/calendar', icon: 'Calendar' },
      { title: 'Inventory', href: '/inventory', icon: 'Package' },
      { title: 'Patients', href: '/patients', icon: 'Users' },
      { title: 'Bookings', href: '/bookings', icon: 'ClipboardList' },
      { title: 'E-Forms', href: '/forms/templates', icon: 'FileText' },
      { title: 'Webhook Logs', href: '/webhook-logs', icon: 'Webhook' },
    ],
  },
  {
    title: 'Automation',
    icon: 'Workflow',
    children: [
      { title: 'Workflows', href: '/workflows', icon: 'GitBranch' },
      { title: 'Templates', href: '/templates', icon: 'LayoutTemplate' },
      { title: 'Library', href: '/workflow-library', icon: 'Library' },
      { title: 'Notifications', href: '/notifications', icon: 'Bell' },
    ],
  },
  {
    title: 'Medical Director',
    icon: 'Stethoscope',
    requiredRole: ['medical_director'],
    children: [{ title: 'Director Dashboard', href: '/medical-director/dashboard', icon: 'LayoutDashboard' }],
  },
  {
    title: 'Scheduler',
    icon: 'CalendarClock',
    requiredRole: ['scheduler'],
    children: [{ title: 'Kanban Dashboard', href: '/scheduler/kanban-dashboard', icon: 'KanbanSquare' }],
  },
  {
    title: 'Physician Portal',
    icon: 'UserRound',
    children: [
      { title: 'Physicians', href: '/physicians', icon: 'Stethoscope' },
      { title: 'Referrals', href: '/referrals', icon: 'Send' },
      { title: 'SLA Tracking', href: '/sla/dashboard', icon: 'Timer' },
    ],
  },
  {
    title: 'Tools & Settings',
    icon: 'Wrench',
    children: [
      { title: 'Scanner Setup', href: '/scanner-setup', icon: 'ScanLine' },
      { title: 'Widget Embed', href: '/widget-embed', icon: 'Code' },
      { title: 'Physician Widget', href: '/physician-widget-embed', icon: 'Code' },
      { title: 'Signup Widget', href: '/physician-signup-widget-embed', icon: 'UserPlus' },
    ],
  },
  {
    title: 'Administration',
    icon: 'Shield',
    requiredRole: ['admin'],
    children: [
      { title: 'Admin Dashboard', href: '/admin/dashboard', icon: 'LayoutDashboard' },
      { title: 'Users', href: '/admin/users', icon: 'UserCog' },
      { title: 'User Registrations', href: '/admin/user-registrations', icon: 'UserPlus' },
      { title: 'Audit Logs', href: '/admin/audit-logs', icon: 'ScrollText' },
      { title: 'HIPAA Compliance', href: '/admin/hipaa', icon: 'ShieldCheck' },
      { title: 'Settings', href: '/admin/settings', icon: 'Settings' },
    ],
  },
];

function visibleTo(role: Role | null | undefined, requiredRole: readonly Role[] | undefined): boolean {
  return requiredRole === undefined || (role != null && requiredRole.includes(role));
}

/** The sidebar as `role` sees it (spec §6): groups and items the role may not see are left out. */
export function navigationFor(role: Role | null | undefined): NavGroup[] {
  const result: NavGroup[] = [];
  for (const group of NAVIGATION) {
    if (!visibleTo(role, group.requiredRole)) continue;
    if (group.children === undefined) {
      result.push(group);
      continue;
    }
    const children = group.children.filter((item) => visibleTo(role, item.requiredRole));
    if (children.length > 0) result.push({ ...group, children });
  }
  return result;
}

/** Is `href` the current route? '/' matches only itself; other links also match their sub-paths. */
export function isActiveHref(href: string, currentPath: string): boolean {
  const path = currentPath.split(/[?#]/, 1)[0] || '/';
  if (href === '/') return path === '/';
  return path === href || path.startsWith(`${href}/`);
}

/** Is one of the group's routes current? Highlights the group in the sidebar. */
export function isGroupActive(group: NavGroup, currentPath: string): boolean {
  if (group.href !== undefined && isActiveHref(group.href, currentPath)) return true;
  return (group.children ?? []).some((item) => isActiveHref(item.href, currentPath));
}

/** The role as the sidebar footer shows it: underscores replaced by spaces. */
export function formatRole(role: string): string {
  return role.replaceAll('_', ' ');
}
