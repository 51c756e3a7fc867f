import { findRoute, isActiveHref, NAVIGATION, shellMessages } from '@wellrest/core';
import { Link, useLocation } from 'wouter';
import { routeTitle } from '@/routes/titles';

interface Crumb {
  label: string;
  href?: string;
}

/** Where the current path sits: Dashboard, its sidebar group and page (a link when on a sub-page), the page. */
export function breadcrumbFor(path: string): Crumb[] {
  const pattern = findRoute(path);
  const current = pattern ? routeTitle(pattern) : '';
  const crumbs: Crumb[] = [];
  if (path !== '/') crumbs.push({ label: routeTitle('/'), href: '/' });
  for (const group of NAVIGATION) {
    const item = group.children?.find((child) => isActiveHref(child.href, path));
    if (!item) continue;
    crumbs.push({ label: group.title });
    if (item.href !== path) crumbs.push({ label: item.title, href: item.href });
    break;
  }
  if (current) crumbs.push({ label: current });
  return crumbs;
}

/** The header's breadcrumb: a navigation landmark whose ancestors are links. */
export function Breadcrumb({ className }: { className?: string }) {
  const [path] = useLocation();
  const crumbs = breadcrumbFor(path);
  return (
    <nav aria-label={shellMessages.breadcrumb} className={className}>
      <ol className="flex min-w-0 items-center gap-2 truncate text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.href ?? crumb.label} className="flex min-w-0 items-center gap-2">
              {crumb.href && !last ? (
                <Link
                  href={crumb.href}
                  className="rounded-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline"
                >
                  {crumb.label}
                </Link>
              ) : (
                <span
                  className={last ? 'truncate font-medium text-slate-900' : 'text-slate-600'}
                  aria-current={last ? 'page' : undefined}
                >
                  {crumb.label}
                </span>
              )}
              {!last && (
                <span aria-hidden className="text-slate-500">
                  /
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
